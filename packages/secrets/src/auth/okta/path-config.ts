import { definePath, field, type HandlerContext } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, tokenFields, tokenReadData } from '../common/index.js';
import { type OktaConfig, oktaStore } from './okta-store.js';

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const DOMAIN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,63}(?::\d{1,5})?$/;

const fields = {
  org_name: field.string({ description: 'Name of the Okta organization (`<org_name>.okta.com`).' }),
  organization: field.string({ description: 'Deprecated: use `org_name`.' }),
  api_token: field.string({
    description: 'Okta API token, to read the groups of users; never shown.',
    sensitive: true,
  }),
  token: field.string({ description: 'Deprecated: use `api_token`.', sensitive: true }),
  base_url: field.string({ description: 'The org’s domain: okta.com (default), oktapreview.com, okta-emea.com.' }),
  production: field.bool({ description: 'Deprecated: false means oktapreview.com.' }),
  bypass_okta_mfa: field.bool({ description: 'Ignore the MFA Okta requires (status checks are skipped too).' }),
  ...tokenFields,
};

/** `config`: the Okta organization, its API token (for group lookups) and the token settings. */
export function pathConfig() {
  return definePath({
    pattern: 'config',
    fields,
    existenceCheck: async ({ storage }) => (await oktaStore.config(storage)) !== undefined,
    operations: {
      create: { summary: 'Configure the method.', handler: (c) => write(c) },
      update: { summary: 'Configure the method.', handler: (c) => write(c) },
      read: {
        summary: 'Read the configuration.',
        handler: async ({ storage }) => {
          const c = await oktaStore.config(storage);
          if (!c) return undefined;
          const data: Record<string, unknown> = {
            org_name: c.org_name,
            organization: c.org_name,
            bypass_okta_mfa: c.bypass_okta_mfa,
            ...tokenReadData(c.token),
          };
          if (c.base_url) data.base_url = c.base_url;
          if (c.production !== undefined) data.production = c.production;
          return { data };
        },
      },
    },
    help: {
      synopsis: 'Configure the Okta auth method.',
      description:
        'Passwords (and MFA) are checked by Okta’s authentication API at https://<org_name>.<base_url>. With ' +
        '`api_token`, the user’s Okta groups are read too and mapped through `groups/`.',
    },
  });
}

async function write({ storage, data, supplied }: HandlerContext<typeof fields>) {
  const current = await oktaStore.config(storage);
  const d = data as Record<string, unknown>;
  const pick = (name: string, legacy: string) =>
    supplied.has(name) ? String(d[name] ?? '') : supplied.has(legacy) ? String(d[legacy] ?? '') : undefined;
  const org = pick('org_name', 'organization') ?? current?.org_name ?? '';
  if (!org) throw new InvalidRequestError('org_name is missing');
  if (!LABEL.test(org)) throw new InvalidRequestError('org_name must be one DNS label');
  const baseUrl = supplied.has('base_url') ? (data.base_url ?? '') : (current?.base_url ?? '');
  if (baseUrl !== '' && !DOMAIN.test(baseUrl))
    throw new InvalidRequestError('base_url must be a domain name such as okta.com');
  const config: OktaConfig = {
    org_name: org,
    api_token: pick('api_token', 'token') ?? current?.api_token ?? '',
    base_url: baseUrl,
    bypass_okta_mfa: supplied.has('bypass_okta_mfa')
      ? Boolean(data.bypass_okta_mfa)
      : (current?.bypass_okta_mfa ?? false),
    token: applyTokenFields(current?.token ?? EMPTY_TOKEN_PARAMS, data, supplied),
  };
  const production = supplied.has('production') ? data.production : current?.production;
  if (production !== undefined) config.production = production;
  await oktaStore.putConfig(storage, config);
  return undefined;
}
