import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { certStore } from './cert-store.js';
import { OCSP_CACHE_MAX, OCSP_CACHE_MIN, type OcspCache } from './ocsp-cache.js';

/** `config`: settings of the method. */
export function pathConfig(ocspCache: OcspCache) {
  return definePath({
    pattern: 'config',
    fields: {
      disable_binding: field.bool({ description: 'Renew tokens without presenting the certificate again.' }),
      enable_identity_alias_metadata: field.bool({ description: 'Put the login metadata on the entity alias.' }),
      ocsp_cache_size: field.int({
        description: `OCSP answers kept (least recently used go first; ${OCSP_CACHE_MIN} to ${OCSP_CACHE_MAX}, default 100).`,
      }),
      role_cache_size: field.int({ description: 'Accepted (trusted certificates are read from storage).' }),
    },
    operations: {
      update: {
        summary: 'Configure the method.',
        handler: async ({ storage, data, supplied }) => {
          const next = await certStore.config(storage);
          if (supplied.has('disable_binding')) next.disable_binding = data.disable_binding === true;
          if (supplied.has('enable_identity_alias_metadata'))
            next.enable_identity_alias_metadata = data.enable_identity_alias_metadata === true;
          if (supplied.has('ocsp_cache_size')) {
            const size = data.ocsp_cache_size ?? next.ocsp_cache_size;
            if (size < OCSP_CACHE_MIN || size > OCSP_CACHE_MAX)
              throw new InvalidRequestError(
                `invalid cache size, must be >= ${OCSP_CACHE_MIN} and <= ${OCSP_CACHE_MAX}`,
              );
            next.ocsp_cache_size = size;
          }
          if (supplied.has('role_cache_size')) next.role_cache_size = data.role_cache_size ?? next.role_cache_size;
          await certStore.putConfig(storage, next);
          // As established, a config write starts the OCSP cache afresh.
          ocspCache.clear();
          return undefined;
        },
      },
      read: {
        summary: 'Read the configuration.',
        handler: async ({ storage }) => ({ data: { ...(await certStore.config(storage)) } }),
      },
    },
    help: { synopsis: 'Configure the cert auth method.', description: 'All settings are optional.' },
  });
}
