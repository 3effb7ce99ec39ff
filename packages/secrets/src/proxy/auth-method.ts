import { readFile } from 'node:fs/promises';
import type { Client, SecretAuth } from '@ward/secrets-client';
import type { AutoAuthMethodConfig } from './config.js';

/** How the proxy gets a token of its own. */
export interface AuthMethod {
  readonly type: string;
  /**
   * Obtains a token and its `auth` block (`client_token`, `lease_duration`, `renewable`). Reads its
   * credential files on every call, so a rotated password or token file is picked up at the next login.
   * Throws the client's `ApiError` or `ConnectionError`, or a file error.
   */
  authenticate(client: Client): Promise<SecretAuth>;
}

export function createAuthMethod(config: AutoAuthMethodConfig): AuthMethod {
  switch (config.type) {
    case 'token_file':
      return {
        type: config.type,
        // The token is someone else's: the proxy only checks it and learns its lease.
        authenticate: async (client) => client.login('token', { token: await readSecretFile(config.tokenFilePath) }),
      };
    case 'userpass': {
      const mount = config.mountPath.replace(/^auth\//, '');
      return {
        type: config.type,
        authenticate: async (client) =>
          client.login(
            'userpass',
            { username: config.username, password: await readSecretFile(config.passwordFilePath) },
            mount,
          ),
      };
    }
  }
}

/** A credential file's text without the trailing newline editors and `echo` add. */
async function readSecretFile(path: string): Promise<string> {
  return (await readFile(path, 'utf8')).replace(/\r?\n$/, '');
}
