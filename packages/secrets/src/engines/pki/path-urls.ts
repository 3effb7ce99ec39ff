import { definePath, field } from '../../framework/index.js';
import { checkUrls } from './aia.js';
import { pkiStore } from './pki-store.js';
import type { CertificateUrls } from './x509.js';

const urlList = (description: string) => field.commaStrings({ description });

/** `config/urls`: the issuer, CRL and OCSP URLs written into certificates issued from now on. */
export function pathConfigUrls() {
  return definePath({
    pattern: 'config/urls',
    fields: {
      issuing_certificates: urlList('URLs of the issuing CA certificate (Authority Information Access).'),
      crl_distribution_points: urlList('CRL distribution point URLs.'),
      ocsp_servers: urlList('OCSP responder URLs (Authority Information Access).'),
    },
    operations: {
      update: {
        summary: 'Set the URLs.',
        handler: async ({ storage, data, supplied }) => {
          const urls: CertificateUrls = { ...(await pkiStore.urls(storage)) };
          for (const name of ['issuing_certificates', 'crl_distribution_points', 'ocsp_servers'] as const)
            if (supplied.has(name)) urls[name] = checkUrls(name, data[name] ?? []);
          await pkiStore.putUrls(storage, urls);
          return undefined;
        },
      },
      read: {
        summary: 'Read the URLs.',
        handler: async ({ storage }) => ({ data: { ...(await pkiStore.urls(storage)) } }),
      },
    },
    help: {
      synopsis: 'URLs written into issued certificates.',
      description: 'They apply to certificates issued after the change.',
    },
  });
}
