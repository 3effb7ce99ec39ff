import { UpstreamError } from '../logical/errors.js';
import { type GoogleApis, googleCall, googleFind } from './apis.js';
import { parseServiceAccountCredentials, type ServiceAccountCredentials } from './credentials.js';

/** A new key of a service account: its IAM name, its JSON key file and its algorithm. */
export interface CreatedKey {
  name: string;
  json: string;
  algorithm: string;
}

/** Creates a key (a JSON key file) for the account through IAM admin. */
export async function createServiceAccountKey(
  apis: GoogleApis,
  email: string,
  keyAlgorithm = 'KEY_ALG_RSA_2048',
): Promise<CreatedKey> {
  const key = await googleCall(`creating a key for ${email}`, () =>
    apis.iam.projects.serviceAccounts.keys.create({
      name: `projects/-/serviceAccounts/${email}`,
      requestBody: { keyAlgorithm, privateKeyType: 'TYPE_GOOGLE_CREDENTIALS_FILE' },
    }),
  );
  if (!key.name || !key.privateKeyData) throw new UpstreamError('IAM created a key without its data');
  return {
    name: key.name,
    json: Buffer.from(key.privateKeyData, 'base64').toString('utf8'),
    algorithm: key.keyAlgorithm ?? keyAlgorithm,
  };
}

/** Deletes a key by its IAM name; one already gone (or whose account is gone) is deleted. */
export async function deleteServiceAccountKey(apis: GoogleApis, name: string): Promise<void> {
  await googleFind(`deleting key ${name}`, () => apis.iam.projects.serviceAccounts.keys.delete({ name }));
}

/**
 * A configuration's own key replaced (`config/rotate-root` of the engine and the auth method):
 * a new key for the same account, made with the current one, handed to `store`; then the old
 * key deleted with the new one (`apisWith` builds the clients for given credentials).
 */
export async function rotateOwnKey(
  current: ServiceAccountCredentials,
  apisWith: (c: ServiceAccountCredentials) => GoogleApis,
  store: (next: ServiceAccountCredentials) => Promise<void>,
): Promise<ServiceAccountCredentials> {
  const key = await createServiceAccountKey(apisWith(current), current.client_email);
  const next = parseServiceAccountCredentials(key.json);
  await store(next);
  if (current.private_key_id)
    await deleteServiceAccountKey(
      apisWith(next),
      `projects/-/serviceAccounts/${current.client_email}/keys/${current.private_key_id}`,
    );
  return next;
}
