import { definePath, field } from '../../framework/index.js';
import type { LogicalResponse } from '../../logical/response.js';
import type { Storage } from '../../logical/storage.js';
import { checkUrls, fillUrls, URL_FIELDS } from './aia.js';
import { type MountUrls, pkiStore } from './pki-store.js';

const urlList = (description: string) => field.commaStrings({ description });

const view = (u: MountUrls) => ({
  issuing_certificates: u.issuing_certificates,
  crl_distribution_points: u.crl_distribution_points,
  ocsp_servers: u.ocsp_servers,
  delta_crl_distribution_points: u.delta_crl_distribution_points ?? [],
  enable_templating: u.enable_templating ?? false,
});

/**
 * As established, templates are checked against `config/cluster` at write only as a warning
 * (the cluster's path may be set afterwards); issuing with a value the cluster lacks is refused.
 */
async function templateWarnings(storage: Storage, urls: MountUrls): Promise<string[]> {
  if (!urls.enable_templating) return [];
  const [first] = await pkiStore.issuerIds(storage);
  if (first === undefined) return [];
  try {
    await fillUrls(storage, urls, first);
    return [];
  } catch (err) {
    return [`issuance may fail: ${(err as Error).message}; consider setting config/cluster`];
  }
}

/** `config/urls`: the issuer, CRL and OCSP URLs written into certificates issued from now on. */
export function pathConfigUrls() {
  return definePath({
    pattern: 'config/urls',
    fields: {
      issuing_certificates: urlList('URLs of the issuing CA certificate (Authority Information Access).'),
      crl_distribution_points: urlList('CRL distribution point URLs.'),
      ocsp_servers: urlList('OCSP responder URLs (Authority Information Access).'),
      delta_crl_distribution_points: urlList('Delta CRL URLs (the Freshest CRL extension).'),
      enable_templating: field.bool({
        description: 'The URLs may use {{issuer_id}}, {{cluster_path}} and {{cluster_aia_path}} (config/cluster).',
      }),
    },
    operations: {
      update: {
        summary: 'Set the URLs.',
        handler: async ({ storage, data, supplied }): Promise<LogicalResponse> => {
          const urls: MountUrls = { ...(await pkiStore.urls(storage)) };
          if (data.enable_templating !== undefined) urls.enable_templating = data.enable_templating;
          for (const name of URL_FIELDS) {
            if (supplied.has(name)) urls[name] = data[name] ?? [];
            checkUrls(name, urls[name] ?? [], urls.enable_templating, 'enable_templating');
          }
          await pkiStore.putUrls(storage, urls);
          const warnings = await templateWarnings(storage, urls);
          return { data: view(urls), ...(warnings.length > 0 ? { warnings } : {}) };
        },
      },
      read: {
        summary: 'Read the URLs.',
        handler: async ({ storage }) => ({ data: view(await pkiStore.urls(storage)) }),
      },
    },
    help: {
      synopsis: 'URLs written into issued certificates.',
      description: 'They apply to certificates issued after the change.',
    },
  });
}
