import { compactVerify, createLocalJWKSet, decodeJwt, errors } from 'jose';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { fillClaimsTemplate, mergeClaims } from './claims-template.js';
import { issuerUrl, type NamedKey, oidcStore, verifyingKeys } from './oidc-store.js';
import { keyWithMaterial } from './path-oidc-clients.js';
import { signWithKey } from './provider-claims.js';
import { type ProviderDeps, templateFacts } from './provider-deps.js';

/** Every key generation still verifying, as the public JWKS shows them. */
export async function publicKeys(storage: Storage, nowMs: number) {
  const keys = [];
  for (const name of await oidcStore.keys(storage)) {
    const key = await oidcStore.key(storage, name);
    keys.push(...verifyingKeys(key, nowMs));
  }
  return { keys };
}

const allows = (key: NamedKey, clientId: string) =>
  key.allowed_client_ids.includes('*') || key.allowed_client_ids.includes(clientId);

/** `oidc/token/:name` (a signed id token for the caller's entity) and `oidc/introspect`. */
export function pathOidcToken(d: ProviderDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'oidc/token/:name',
      fields: { name: field.path({ description: 'The role.' }) },
      operations: {
        read: {
          summary: 'Issue an identity token for the caller’s entity.',
          handler: async ({ storage, data, req }) => {
            const role = await oidcStore.role(storage, data.name);
            if (!role) throw new InvalidRequestError(`role "${data.name}" not found`);
            const key = await keyWithMaterial(storage, role.key, d);
            if (!key?.generations[0]?.private) throw new InvalidRequestError(`key "${role.key}" not found`);
            if (!allows(key, role.client_id))
              throw new InvalidRequestError(
                `the key "${role.key}" does not list the client ID of the role "${data.name}" as an allowed client ID`,
              );
            const entityId = req.caller?.entityId ?? '';
            if (!entityId) throw new InvalidRequestError("no entity associated with the request's token");
            const now = Math.floor(d.clock.now() / 1000);
            const claims: Record<string, unknown> = {
              iss: issuerUrl(await oidcStore.issuer(storage), d),
              namespace: d.namespace.id,
              sub: entityId,
              aud: role.client_id,
              iat: now,
              exp: now + role.ttl,
            };
            const entity = d.store.resolveEntity(entityId);
            if (entity && role.template !== '') {
              // As established, a template this entity cannot fill is logged; the token gets the base claims.
              try {
                mergeClaims(claims, [fillClaimsTemplate(role.template, templateFacts(d, entity))]);
              } catch (err) {
                d.logger.warn('error populating OIDC token template', {
                  role: data.name,
                  error: (err as Error).message,
                });
              }
            }
            const token = await signWithKey(key, claims);
            return { data: { client_id: role.client_id, token, ttl: role.ttl } };
          },
        },
      },
      help: {
        synopsis: 'Generate an identity token.',
        description: 'iss <issuer>/v1/identity/oidc, sub the entity id, aud the role’s client_id.',
      },
    }),
    definePath({
      pattern: 'oidc/introspect',
      fields: {
        token: field.string({ description: 'The token to check.' }),
        client_id: field.string({ description: 'The audience it must have, if given.' }),
      },
      operations: {
        update: {
          summary: 'Check a token’s signature and validity.',
          handler: async ({ storage, data }) => {
            if (!data.token) throw new InvalidRequestError('missing token');
            // Raw JSON, as established (RFC 7662's shape, not the envelope).
            const inactive = (error: string) => ({ raw: { status: 200, body: { active: false, error } } });
            try {
              await compactVerify(data.token, createLocalJWKSet(await publicKeys(storage, d.clock.now())));
            } catch (err) {
              if (err instanceof errors.JOSEError) return inactive(`error validating signature: ${err.message}`);
              throw err;
            }
            const claims = decodeJwt(data.token);
            if (typeof claims.exp === 'number' && claims.exp * 1000 < d.clock.now())
              return inactive('token is expired');
            if (data.client_id && claims.aud !== data.client_id) return inactive('client_id is not an audience claim');
            return { raw: { status: 200, body: { active: true } } };
          },
        },
      },
      help: {
        synopsis: 'Introspect an identity token.',
        description: 'active: true when the signature, expiry and audience hold.',
      },
    }),
  ];
}
