import { type AzureAccess, canonicalEnvironment } from '../../engines/azure/index.js';
import { definePath, field, type HandlerContext } from '../../framework/index.js';
import { type AzureAuthConfig, azureAuthStore } from './azure-auth-store.js';

const fields = {
  tenant_id: field.string({ description: 'The Entra ID tenant whose identities log in.' }),
  resource: field.string({ description: 'The audience login tokens must have (the resource they were asked for).' }),
  environment: field.string({
    description: 'Cloud: AzurePublicCloud (default), AzureUSGovernmentCloud, AzureChinaCloud, AzureGermanCloud.',
  }),
  client_id: field.string({
    description: 'Service principal for Resource Manager lookups (default: managed identity).',
  }),
  client_secret: field.string({ description: 'Its secret; never shown.', sensitive: true }),
};

/** `config`: the tenant, the audience of login tokens, the cloud, and the credentials for VM lookups. */
export function pathConfig(access: AzureAccess) {
  const write = async ({ storage, data, supplied }: HandlerContext<typeof fields>) => {
    const current = await azureAuthStore.config(storage);
    const pick = (name: keyof typeof fields) => (supplied.has(name) ? (data[name] ?? '') : (current?.[name] ?? ''));
    const config: AzureAuthConfig = {
      tenant_id: pick('tenant_id'),
      resource: pick('resource'),
      environment: canonicalEnvironment(access, pick('environment')),
      client_id: pick('client_id'),
      client_secret: pick('client_secret'),
    };
    await azureAuthStore.putConfig(storage, config);
    return undefined;
  };
  return definePath({
    pattern: 'config',
    fields,
    existenceCheck: async ({ storage }) => (await azureAuthStore.config(storage)) !== undefined,
    operations: {
      create: { summary: 'Configure the method.', handler: write },
      update: { summary: 'Configure the method.', handler: write },
      read: {
        summary: 'Read the configuration (without the secret).',
        handler: async ({ storage }) => {
          const c = await azureAuthStore.config(storage);
          if (!c) return undefined;
          return {
            data: { tenant_id: c.tenant_id, resource: c.resource, environment: c.environment, client_id: c.client_id },
          };
        },
      },
      delete: {
        summary: 'Delete the configuration.',
        handler: async ({ storage }) => {
          await azureAuthStore.deleteConfig(storage);
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Configure the Azure auth method.',
      description:
        'Login tokens are checked against the signing keys the tenant publishes (OpenID discovery of ' +
        '<login endpoint>/<tenant_id>), for the audience `resource`.',
    },
  });
}
