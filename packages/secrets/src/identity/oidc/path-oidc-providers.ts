import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { fillClaimsTemplate } from './claims-template.js';
import { allowsClient, type ProviderDeps, providerIssuer } from './provider-deps.js';
import { DEFAULT_PROVIDER, type ProviderRecord, providerStore } from './provider-store.js';

const ISSUER_WARNING =
  'If "issuer" is set explicitly, all tokens must be validated against that address, including those issued by ' +
  'secondary clusters. Setting issuer to "" will restore the default behavior of using the cluster\'s api_addr as the issuer.';

/** Only `scheme://host[:port]`, http or https. */
function isValidIssuer(issuer: string): boolean {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  return /^https?:$/.test(url.protocol) && url.host !== '' && `${url.protocol}//${url.host}` === issuer;
}

/** Warnings for scopes whose templates set the same top-level claim (a request naming both fails). */
async function scopeConflicts(storage: Storage, scopes: readonly string[]): Promise<string[]> {
  const owner = new Map<string, string>();
  const warnings: string[] = [];
  for (const name of scopes) {
    const scope = await providerStore.scope(storage, name);
    if (!scope) throw new InvalidRequestError(`scope "${name}" does not exist`);
    let claims: object = {};
    try {
      claims = JSON.parse(
        fillClaimsTemplate(scope.template, {
          entity: { id: '', name: '', metadata: null, aliases: [] },
          groups: [],
          namespaceId: '',
          nowMs: 0,
        }) || '{}',
      );
    } catch {
      // A template that needs groups to be filled is checked when a token is issued.
    }
    for (const claim of Object.keys(claims)) {
      const other = owner.get(claim);
      if (other !== undefined && other !== name)
        warnings.push(
          `Found scope templates with conflicting top-level keys: conflict "${claim}" in scopes "${name}", "${other}". ` +
            'This may result in an error if the scopes are requested in an OIDC Authentication Request.',
        );
      owner.set(claim, name);
    }
  }
  return warnings;
}

/** `oidc/provider/:name` and LIST `oidc/provider` (filtered by `allowed_client_id`). */
export function pathOidcProviders(d: ProviderDeps): PathDefinition[] {
  const shown = (name: string, p: ProviderRecord) => ({
    issuer: providerIssuer(d, name, p),
    allowed_client_ids: p.allowed_client_ids,
    scopes_supported: p.scopes_supported,
  });
  return [
    definePath({
      pattern: 'oidc/provider/',
      fields: { allowed_client_id: field.string({ description: 'Only providers this client id may use.' }) },
      operations: {
        list: {
          summary: 'List the providers, with each one’s settings under key_info.',
          handler: async ({ storage, data }) => {
            await d.ensureDefaults(storage);
            const info = new Map<string, ReturnType<typeof shown>>();
            for (const name of await providerStore.providers(storage)) {
              const p = await providerStore.provider(storage, name);
              if (!p || (data.allowed_client_id && !allowsClient(p.allowed_client_ids, data.allowed_client_id)))
                continue;
              info.set(name, shown(name, p));
            }
            return { data: { keys: [...info.keys()], key_info: Object.fromEntries(info) } };
          },
        },
      },
      help: { synopsis: 'List the OpenID providers.', description: 'The default provider is always there.' },
    }),
    definePath({
      pattern: 'oidc/provider/:name',
      fields: {
        name: field.path({ description: 'Name of the provider.' }),
        issuer: field.string({ description: 'scheme://host:port of its iss (default: api_addr).' }),
        allowed_client_ids: field.commaStrings({ description: 'Client ids that may use it (`*`: any).' }),
        scopes_supported: field.commaStrings({ description: 'Scopes (identity/oidc/scope) it answers.' }),
      },
      existenceCheck: async ({ storage, data }) => (await providerStore.provider(storage, data.name)) !== undefined,
      operations: {
        update: {
          summary: 'Create or update the provider.',
          handler: async ({ storage, data, supplied }) => {
            await d.ensureDefaults(storage);
            const current = await providerStore.provider(storage, data.name);
            const next: ProviderRecord = {
              issuer: (supplied.has('issuer') ? data.issuer : current?.issuer) ?? '',
              allowed_client_ids: [
                ...new Set(
                  (supplied.has('allowed_client_ids') ? data.allowed_client_ids : current?.allowed_client_ids) ?? [],
                ),
              ],
              scopes_supported: [
                ...new Set(
                  (supplied.has('scopes_supported') ? data.scopes_supported : current?.scopes_supported) ?? [],
                ),
              ],
            };
            const warnings: string[] = [];
            if (next.issuer !== '') {
              if (!isValidIssuer(next.issuer))
                throw new InvalidRequestError(
                  'invalid issuer, which must include only a scheme, host, and optional port (e.g. https://example.com:8200)',
                );
              warnings.push(ISSUER_WARNING);
            }
            warnings.push(...(await scopeConflicts(storage, next.scopes_supported)));
            await providerStore.putProvider(storage, data.name, next);
            return warnings.length > 0 ? { data: null, warnings } : undefined;
          },
        },
        read: {
          summary: 'Read the provider.',
          handler: async ({ storage, data }) => {
            await d.ensureDefaults(storage);
            const p = await providerStore.provider(storage, data.name);
            return p && { data: shown(data.name, p) };
          },
        },
        delete: {
          summary: 'Delete the provider (not the default one).',
          handler: async ({ storage, data }) => {
            if (data.name === DEFAULT_PROVIDER)
              throw new InvalidRequestError(`deletion of OIDC provider "${DEFAULT_PROVIDER}" not allowed`);
            await providerStore.deleteProvider(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage an OpenID provider.',
        description: 'Relying parties discover it at <issuer>/.well-known/openid-configuration.',
      },
    }),
  ];
}
