import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, tokenFields, tokenReadData } from '../common/index.js';
import { type GitHubConfig, githubStore } from './config-store.js';
import { DEFAULT_BASE_URL, GitHubApi, GitHubNotFound } from './github-api.js';

/** `base_url` as stored: an http(s) URL ending with `/` (GitHub's client resolves paths against it). */
function parseBaseUrl(text: string): string {
  if (text === '') return '';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidRequestError('error parsing given base_url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InvalidRequestError('base_url must be an http or https URL');
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** The organization's id, asked of GitHub when the config does not give it (trust on first use, as established). */
async function organizationId(baseUrl: string, organization: string): Promise<number> {
  try {
    const org = await new GitHubApi(baseUrl || DEFAULT_BASE_URL).organization(organization);
    if (org.id > 0) return org.id;
  } catch (error) {
    if (!(error instanceof GitHubNotFound)) throw error;
  }
  throw new InvalidRequestError(
    `unable to fetch the organization_id, you must manually set it in the config: organization_id not found for ${organization}`,
  );
}

/** `config`: the organization whose members log in, GitHub's address, and the token settings. */
export function pathConfig() {
  return definePath({
    pattern: 'config',
    fields: {
      organization: field.string({ description: 'The organization users must be part of (required).' }),
      organization_id: field.int({ description: 'Its numeric id; asked of GitHub when not given.' }),
      base_url: field.string({ description: 'GitHub Enterprise API URL (https://host/api/v3/); empty: GitHub.' }),
      ...tokenFields,
    },
    operations: {
      update: {
        summary: 'Configure the method.',
        handler: async ({ storage, data, supplied }) => {
          const current = await githubStore.config(storage);
          const organization = supplied.has('organization') ? (data.organization ?? '') : current?.organization;
          if (!organization) throw new InvalidRequestError('organization is a required parameter');
          const base_url = supplied.has('base_url') ? parseBaseUrl(data.base_url ?? '') : (current?.base_url ?? '');
          if (data.organization_id !== undefined && data.organization_id < 0)
            throw new InvalidRequestError('organization_id must be a positive number');
          const sameOrg = current?.organization === organization && current.base_url === base_url;
          const config: GitHubConfig = {
            organization,
            organization_id:
              data.organization_id ||
              (sameOrg && current.organization_id) ||
              (await organizationId(base_url, organization)),
            base_url,
            token: applyTokenFields(current?.token ?? EMPTY_TOKEN_PARAMS, data, supplied),
          };
          await githubStore.putConfig(storage, config);
          return undefined;
        },
      },
      read: {
        summary: 'Read the configuration.',
        handler: async ({ storage }) => {
          const config = await githubStore.config(storage);
          if (!config) return undefined;
          return {
            data: {
              organization: config.organization,
              organization_id: config.organization_id,
              base_url: config.base_url,
              ...tokenReadData(config.token),
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Configure the GitHub auth method.',
      description:
        'Without organization_id, GitHub is asked for it (GET orgs/:organization) and it is kept: logins are ' +
        'checked against the id, so a renamed organization still matches and an impostor taking its old name does not.',
    },
  });
}
