import { definePath, field, withoutSensitive } from '../../framework/index.js';
import { InvalidRequestError, LogicalError, NotFoundError } from '../../logical/errors.js';
import { isUsablePem } from '../common/pem-keys.js';
import { EMPTY_CONFIG, type JwksPair, type JwtConfig, jwtStore } from './jwt-store.js';
import type { KeySource } from './key-source.js';
import { checkProviderConfig } from './provider-config.js';

const fields = {
  oidc_discovery_url: field.string({
    description: 'OIDC issuer URL; its discovery document gives the keys and endpoints.',
  }),
  oidc_discovery_ca_pem: field.string({ description: 'CA certificates (PEM) to trust for the discovery URL.' }),
  oidc_client_id: field.string({ description: 'The client id of the OIDC flow.' }),
  oidc_client_secret: field.string({
    description: 'The client secret of the OIDC flow (never shown).',
    sensitive: true,
  }),
  oidc_response_mode: field.string({ description: '`query` (default) or `form_post`.' }),
  oidc_response_types: field.commaStrings({ description: '`code` (default) or `id_token`.' }),
  jwks_url: field.string({ description: 'URL of a JWKS whose keys verify JWTs.' }),
  jwks_ca_pem: field.string({ description: 'CA certificates (PEM) to trust for the JWKS URL.' }),
  jwks_pairs: field.objects({
    description: 'Several JWKS endpoints, each {jwks_url, jwks_ca_pem}; not with jwks_url or jwks_ca_pem.',
  }),
  jwt_validation_pubkeys: field.commaStrings({ description: 'PEM public keys or certificates that verify JWTs.' }),
  jwt_supported_algs: field.commaStrings({
    description: 'Signing algorithms accepted (default: RS256 for OIDC, any asymmetric else).',
  }),
  bound_issuer: field.string({ description: 'The `iss` every JWT must carry (with static keys or a JWKS).' }),
  default_role: field.string({ description: 'Role used when a login names none.' }),
  provider_config: field.object({
    description: 'Provider settings: provider azure, gsuite, ibmisam or secureauth (checked; stored and shown).',
  }),
  namespace_in_state: field.bool({ description: 'Accepted for compatibility; the state is kept by this server.' }),
};

const STRING_KEYS = [
  'oidc_discovery_url',
  'oidc_discovery_ca_pem',
  'oidc_client_id',
  'oidc_client_secret',
  'oidc_response_mode',
  'jwks_url',
  'jwks_ca_pem',
  'bound_issuer',
  'default_role',
] as const;

/** `config`: where keys come from and the OIDC client; a write checks that the source answers. */
export function pathConfig(keys: KeySource) {
  return definePath({
    pattern: 'config',
    fields,
    operations: {
      update: {
        summary: 'Configure the method.',
        handler: async ({ storage, data, supplied }) => {
          const next: JwtConfig = { ...((await jwtStore.config(storage)) ?? EMPTY_CONFIG) };
          for (const key of STRING_KEYS) if (supplied.has(key)) next[key] = (data[key] ?? '').trim();
          for (const key of ['oidc_response_types', 'jwt_validation_pubkeys', 'jwt_supported_algs'] as const)
            if (supplied.has(key)) next[key] = data[key] ?? [];
          if (supplied.has('jwks_pairs')) next.jwks_pairs = parsePairs(data.jwks_pairs ?? []);
          if (supplied.has('provider_config')) {
            next.provider_config = data.provider_config ?? {};
            checkProviderConfig(next.provider_config);
          }
          if (supplied.has('namespace_in_state')) next.namespace_in_state = data.namespace_in_state ?? true;
          await validate(next);
          try {
            await keys.check(next);
          } catch (err) {
            if (!(err instanceof LogicalError)) throw err;
            const what = next.oidc_discovery_url ? 'error checking oidc discovery URL' : 'error checking jwks URL';
            throw new InvalidRequestError(`${what}: ${err.message}`);
          }
          await jwtStore.putConfig(storage, next);
          return undefined;
        },
      },
      read: {
        summary: 'Read the configuration (the client secret and gsuite_service_account are never shown).',
        handler: async ({ storage }) => {
          const config = await jwtStore.config(storage);
          if (!config) throw new NotFoundError('');
          // As established, a provider's sensitive settings (gsuite's service account key) are not shown.
          const { gsuite_service_account: _key, ...providerConfig } = config.provider_config;
          return { data: { ...withoutSensitive(fields, config), provider_config: providerConfig } };
        },
      },
    },
    help: {
      synopsis: 'Configure the JWT/OIDC auth method.',
      description:
        'Exactly one of oidc_discovery_url, jwks_url, jwks_pairs or jwt_validation_pubkeys. The OIDC flow needs ' +
        'oidc_discovery_url with oidc_client_id and oidc_client_secret. Fetched documents are cached for an hour ' +
        'and fetched again when a token names an unknown key.',
    },
  });
}

/** `jwks_pairs` as written: a list of maps with `jwks_url` (required) and `jwks_ca_pem`, both strings. */
function parsePairs(items: Record<string, unknown>[]): JwksPair[] {
  return items.map((item) => {
    const { jwks_url: url, jwks_ca_pem: ca = '' } = item;
    if (typeof url !== 'string' || url.trim() === '' || typeof ca !== 'string')
      throw new InvalidRequestError(
        'invalid jwks_pairs: each must be a map with the string fields jwks_url (required) and jwks_ca_pem',
      );
    return { jwks_url: url.trim(), jwks_ca_pem: ca };
  });
}

async function validate(c: JwtConfig): Promise<void> {
  const sources = [
    c.oidc_discovery_url,
    c.jwks_url,
    c.jwks_pairs.length > 0 ? 'x' : '',
    c.jwt_validation_pubkeys.length > 0 ? 'x' : '',
  ].filter(Boolean);
  if (sources.length !== 1)
    throw new InvalidRequestError(
      "exactly one of 'jwt_validation_pubkeys', 'jwks_url', 'jwks_pairs' or 'oidc_discovery_url' must be set",
    );
  if (c.jwks_pairs.length > 0 && c.jwks_ca_pem)
    throw new InvalidRequestError("CA PEMs must be provided as part of the 'jwks_pairs' when using multiple JWKS URLs");
  if (c.jwks_pairs.length > 0 && c.bound_issuer)
    throw new InvalidRequestError("Bound issuer is not supported for use with 'jwks_pairs'");
  if ((c.oidc_client_id === '') !== (c.oidc_client_secret === ''))
    throw new InvalidRequestError("both 'oidc_client_id' and 'oidc_client_secret' must be set for OIDC");
  if (c.oidc_client_id && !c.oidc_discovery_url)
    throw new InvalidRequestError("'oidc_discovery_url' must be set for OIDC");
  for (const pem of c.jwt_validation_pubkeys)
    if (!(await isUsablePem(pem)))
      throw new InvalidRequestError('error parsing public key: not a PEM public key or certificate');
  if (c.oidc_response_mode !== '' && c.oidc_response_mode !== 'query' && c.oidc_response_mode !== 'form_post')
    throw new InvalidRequestError("invalid response_mode: must be 'query' or 'form_post'");
  for (const t of c.oidc_response_types)
    if (t !== 'code' && t !== 'id_token') throw new InvalidRequestError(`invalid response_type: "${t}"`);
  if (c.oidc_response_types.includes('id_token') && c.oidc_response_mode !== 'form_post')
    throw new InvalidRequestError("response_type 'id_token' requires response_mode 'form_post'");
  for (const url of [c.oidc_discovery_url, c.jwks_url, ...c.jwks_pairs.map((p) => p.jwks_url)])
    if (url && !/^https?:\/\/\S+$/.test(url)) throw new InvalidRequestError(`invalid URL: ${url}`);
}
