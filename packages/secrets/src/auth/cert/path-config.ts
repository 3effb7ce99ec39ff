import { definePath, field } from '../../framework/index.js';
import { certStore } from './cert-store.js';

/** `config`: settings of the method. */
export function pathConfig() {
  return definePath({
    pattern: 'config',
    fields: {
      disable_binding: field.bool({ description: 'Renew tokens without presenting the certificate again.' }),
      enable_identity_alias_metadata: field.bool({ description: 'Put the login metadata on the entity alias.' }),
      ocsp_cache_size: field.int({ description: 'Accepted (OCSP answers are not cached: each login asks).' }),
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
          if (supplied.has('ocsp_cache_size')) next.ocsp_cache_size = data.ocsp_cache_size ?? next.ocsp_cache_size;
          if (supplied.has('role_cache_size')) next.role_cache_size = data.role_cache_size ?? next.role_cache_size;
          await certStore.putConfig(storage, next);
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
