import { parseServiceAccountCredentials } from '../../google/credentials.js';
import { InvalidRequestError } from '../../logical/errors.js';

/**
 * `provider_config`, checked as the established method checks it: a `provider` it knows, and the
 * settings that provider takes. What `azure` and `gsuite` fetch at login is in `provider-fetch.ts`.
 */

const BOOLEAN = (v: unknown) => typeof v === 'boolean';
const STRING = (v: unknown) => typeof v === 'string';
const NON_NEGATIVE_INT = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const URL_SETTING = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s/]+(\/\S*)?$/.test(v);

/** Each provider's settings and what each must be. */
const PROVIDERS = new Map<string, Map<string, (v: unknown) => boolean>>([
  ['azure', new Map()],
  [
    'gsuite',
    new Map([
      ['gsuite_service_account', STRING],
      ['gsuite_admin_impersonate', STRING],
      ['fetch_groups', BOOLEAN],
      ['fetch_user_info', BOOLEAN],
      ['groups_recurse_max_depth', NON_NEGATIVE_INT],
      ['user_custom_schemas', STRING],
      ['impersonate_principal', STRING],
      ['domain', STRING],
      // Ward's own (private access endpoints, tests): the Admin SDK's base URL (admin.googleapis.com), and
      // for impersonate_principal IAM Credentials' (iamcredentials.googleapis.com) and the token endpoint.
      ['gsuite_admin_endpoint', URL_SETTING],
      ['gsuite_iam_endpoint', URL_SETTING],
      ['gsuite_token_endpoint', URL_SETTING],
    ]),
  ],
  ['ibmisam', new Map()],
  ['secureauth', new Map()],
]);

export function checkProviderConfig(config: Record<string, unknown>): void {
  if (Object.keys(config).length === 0) return;
  const provider = config.provider;
  if (provider === undefined) throw new InvalidRequestError("'provider' field not found in provider_config");
  if (typeof provider !== 'string') throw new InvalidRequestError("'provider' field must be a string");
  const settings = PROVIDERS.get(provider);
  if (!settings)
    throw new InvalidRequestError(
      `provider "${provider}" not found in custom providers (${[...PROVIDERS.keys()].join(', ')})`,
    );
  for (const [key, value] of Object.entries(config)) {
    if (key === 'provider') continue;
    const isValid = settings.get(key);
    if (!isValid) throw new InvalidRequestError(`unknown provider_config setting "${key}" for provider ${provider}`);
    if (!isValid(value)) throw new InvalidRequestError(`invalid provider_config value for "${key}"`);
  }
  if (provider === 'gsuite' && (config.fetch_groups === true || config.fetch_user_info === true)) {
    if (!config.gsuite_admin_impersonate)
      throw new InvalidRequestError("'gsuite_admin_impersonate' must be set to fetch groups or user info");
  }
  // A key given as JSON text is checked now; a path is read at login, where the file must be.
  const key = config.gsuite_service_account;
  if (provider === 'gsuite' && typeof key === 'string' && key.trimStart().startsWith('{'))
    parseServiceAccountCredentials(key);
}
