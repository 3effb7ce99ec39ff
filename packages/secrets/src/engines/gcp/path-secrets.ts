import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { gcpCloud } from './cloud.js';
import type { GcpEngineDeps } from './deps.js';
import { gcpEngineStore, type Roleset, type StaticAccount } from './gcp-store.js';
import { issueKey, mintToken, tokenData } from './issued.js';

type Owner = 'roleset' | 'static-account';

async function ownerOf(storage: Storage, owner: Owner, name: string): Promise<Roleset | StaticAccount> {
  const found =
    owner === 'roleset'
      ? await gcpEngineStore.rolesets.get(storage, name)
      : await gcpEngineStore.staticAccounts.get(storage, name);
  if (!found)
    throw new InvalidRequestError(`${owner === 'roleset' ? 'role set' : 'static account'} '${name}' does not exist`);
  return found;
}

const keyFields = {
  key_algorithm: field.string({ description: 'KEY_ALG_RSA_2048 (default) or KEY_ALG_RSA_1024.' }),
  key_type: field.string({ description: 'TYPE_GOOGLE_CREDENTIALS_FILE (the only one issued).' }),
  ttl: field.durationSeconds({ description: 'Lease of the key (capped by the config’s max_ttl).' }),
};

function tokenPath(pattern: string, owner: Owner, d: GcpEngineDeps): PathDefinition {
  const handler = async ({ storage, data }: { storage: Storage; data: { name: string } }) => {
    const account = await ownerOf(storage, owner, data.name);
    if (account.secret_type !== 'access_token' || !account.token_key)
      throw new InvalidRequestError(
        `${owner} '${data.name}' cannot generate access tokens (has secret type ${account.secret_type})`,
      );
    return mintToken(d, account.token_key, account.token_scopes);
  };
  return definePath({
    pattern,
    fields: { name: field.path({ description: `Name of the ${owner}.` }) },
    operations: {
      read: { summary: 'Mint an OAuth access token (not leased; it expires by itself).', handler },
      update: { summary: 'Mint an OAuth access token.', handler },
    },
    help: {
      synopsis: 'An OAuth access token of the account.',
      description: 'Answers token, token_ttl, expires_at_seconds.',
    },
  });
}

function keyPath(pattern: string, owner: Owner, d: GcpEngineDeps): PathDefinition {
  const handler = async ({ storage, data }: { storage: Storage; data: { name: string } & Record<string, unknown> }) => {
    const account = await ownerOf(storage, owner, data.name);
    if (account.secret_type !== 'service_account_key')
      throw new InvalidRequestError(
        `${owner} '${data.name}' cannot generate service account keys (has secret type ${account.secret_type})`,
      );
    return issueKey(
      d,
      storage,
      { owner, owner_name: data.name, service_account_email: account.service_account_email },
      data as { key_algorithm?: string; key_type?: string; ttl?: number },
    );
  };
  return definePath({
    pattern,
    fields: { name: field.path({ description: `Name of the ${owner}.` }), ...keyFields },
    operations: {
      read: { summary: 'Create a leased service account key.', handler },
      update: { summary: 'Create a leased service account key.', handler },
    },
    help: { synopsis: 'A leased key of the account.', description: 'Revoking the lease deletes the key in IAM.' },
  });
}

/** The secrets: tokens and keys of rolesets and static accounts, tokens of impersonated accounts. */
export function pathSecrets(d: GcpEngineDeps): PathDefinition[] {
  const impersonatedToken = async ({ storage, data }: { storage: Storage; data: { name: string } }) => {
    const a = await gcpEngineStore.impersonated.get(storage, data.name);
    if (!a) throw new InvalidRequestError(`impersonated account '${data.name}' does not exist`);
    const t = await gcpCloud.generateAccessToken(
      await d.apis(storage),
      a.service_account_email,
      a.token_scopes,
      a.ttl || 3600,
    );
    return tokenData(d, t.token, t.expiresAtS);
  };
  return [
    tokenPath('roleset/:name/token', 'roleset', d),
    tokenPath('token/:name', 'roleset', d),
    keyPath('roleset/:name/key', 'roleset', d),
    keyPath('key/:name', 'roleset', d),
    tokenPath('static-account/:name/token', 'static-account', d),
    keyPath('static-account/:name/key', 'static-account', d),
    definePath({
      pattern: 'impersonated-account/:name/token',
      fields: { name: field.path({ description: 'Name of the impersonated account.' }) },
      operations: {
        read: {
          summary: 'Mint an access token through IAM credentials generateAccessToken.',
          handler: impersonatedToken,
        },
        update: { summary: 'Mint an access token.', handler: impersonatedToken },
      },
      help: { synopsis: 'An access token of the impersonated account.', description: 'Not leased.' },
    }),
  ];
}
