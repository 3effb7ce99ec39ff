import { definePath, field } from '../../framework/index.js';
import { checkUrls, URL_FIELDS } from './aia.js';
import { type MountUrls, pkiStore } from './pki-store.js';

const urlList = (description: string) => field.commaStrings({ description });

/**
 * `config/urls`: the issuer, CRL and OCSP URLs written into certificates issued from now on (by an
 * issuer without URLs of its own); with `enable_templating`, filled in per issuer as `issuer/:ref`'s are.
 */
export function pathConfigUrls() {
  return definePath({
    pattern: 'config/urls',
    fields: {
      issuing_certificates: urlList('URLs of the issuing CA certificate (Authority Information Access).'),
      crl_distribution_points: urlList('CRL distribution point URLs.'),
      ocsp_servers: urlList('OCSP responder URLs (Authority Information Access).'),
      enable_templating: field.bool({
        description: 'The URLs may use {{issuer_id}}, {{cluster_path}}, {{cluster_aia_path}}, filled per issuer.',
      }),
    },
    operations: {
      update: {
        summary: 'Set the URLs.',
        handler: async ({ storage, data, supplied }) => {
          const urls: MountUrls = { ...(await pkiStore.urls(storage)) };
          if (supplied.has('enable_templating')) urls.enable_templating = data.enable_templating ?? false;
          for (const name of URL_FIELDS) {
            if (supplied.has(name)) urls[name] = data[name] ?? [];
            // Checked again when templating is turned off: a template kept would be written as is.
            urls[name] = checkUrls(name, urls[name], urls.enable_templating === true, 'enable_templating');
          }
          await pkiStore.putUrls(storage, urls);
          return undefined;
        },
      },
      read: {
        summary: 'Read the URLs.',
        handler: async ({ storage }) => {
          const urls = await pkiStore.urls(storage);
          return { data: { ...urls, enable_templating: urls.enable_templating ?? false } };
        },
      },
    },
    help: {
      synopsis: 'URLs written into issued certificates.',
      description: 'They apply to certificates issued after the change.',
    },
  });
}
