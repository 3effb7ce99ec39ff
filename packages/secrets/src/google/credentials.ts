import { createPrivateKey } from 'node:crypto';
import { InvalidRequestError } from '../logical/errors.js';

/** Google's OAuth 2.0 token endpoint, where a service account trades a signed JWT for a token. */
export const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** A service account key file (`type: service_account`), as Google issues it and operators paste it. */
export interface ServiceAccountCredentials {
  client_email: string;
  private_key: string;
  private_key_id: string;
  project_id: string;
  client_id: string;
  /** Where the JWT bearer grant is sent (the key file's `token_uri`, as Google's own libraries read it). */
  token_uri: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Parses a service account key file given as JSON text, checking what later calls need: an
 * email, a PEM private key that loads, and an http(s) token endpoint. Anything else is a 400.
 */
export function parseServiceAccountCredentials(raw: string): ServiceAccountCredentials {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new InvalidRequestError('credentials must be the JSON of a service account key');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new InvalidRequestError('credentials must be the JSON of a service account key');
  const o = json as Record<string, unknown>;
  if (o.type !== undefined && o.type !== 'service_account')
    throw new InvalidRequestError(`credentials of type "${text(o.type)}" are not supported: only service_account`);
  const credentials: ServiceAccountCredentials = {
    client_email: text(o.client_email),
    private_key: text(o.private_key),
    private_key_id: text(o.private_key_id),
    project_id: text(o.project_id),
    client_id: text(o.client_id),
    token_uri: text(o.token_uri) || DEFAULT_TOKEN_URI,
  };
  if (!credentials.client_email.includes('@')) throw new InvalidRequestError('credentials: client_email is missing');
  try {
    createPrivateKey(credentials.private_key);
  } catch {
    throw new InvalidRequestError('credentials: private_key is not a PEM private key');
  }
  if (!/^https?:\/\/[^\s]+$/.test(credentials.token_uri))
    throw new InvalidRequestError('credentials: token_uri must be an http(s) URL');
  return credentials;
}

/** The key file again, as Google's libraries and the `credentials` field take it. */
export function credentialsJson(c: ServiceAccountCredentials): string {
  return JSON.stringify({ type: 'service_account', ...c });
}
