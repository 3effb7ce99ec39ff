import { createAppRoleBackend } from './auth/approle/index.js';
import { createAwsAuthBackend } from './auth/aws/index.js';
import { createAzureAuthBackend } from './auth/azure/index.js';
import { createCertBackend } from './auth/cert/index.js';
import { createGcpBackend } from './auth/gcp/index.js';
import { createGitHubBackend } from './auth/github/index.js';
import { createJwtBackend } from './auth/jwt/index.js';
import { createKubernetesBackend } from './auth/kubernetes/index.js';
import { createLdapAuthBackend } from './auth/ldap/index.js';
import { createOktaBackend } from './auth/okta/index.js';
import { createUserpassBackend } from './auth/userpass/index.js';
import type { DefaultMount } from './core/core-types.js';
import type { BackendCatalog, BackendFactory } from './core/router/mounts.js';
import { createAwsBackend } from './engines/aws/index.js';
import { createAzureBackend } from './engines/azure/index.js';
import { createDatabaseBackend } from './engines/database/backend.js';
import { createGcpSecretsBackend } from './engines/gcp/index.js';
import { createKvBackend } from './engines/kv/backend.js';
import { createLdapBackend } from './engines/ldap/index.js';
import { createPkiBackend } from './engines/pki/backend.js';
import { createSshBackend } from './engines/ssh/backend.js';
import { createTotpBackend } from './engines/totp/backend.js';
import { createTransitBackend } from './engines/transit/backend.js';

/**
 * Every mountable secrets engine (`sys/mounts`) and auth method (`sys/auth`) by type. The
 * only file that imports them all: the core gets this map and never imports one itself.
 */
export const BUILTIN_BACKENDS: BackendCatalog = {
  mounts: new Map([
    ['aws', createAwsBackend],
    ['azure', createAzureBackend],
    ['database', createDatabaseBackend],
    ['gcp', createGcpSecretsBackend],
    ['kv', createKvBackend],
    ['ldap', createLdapBackend],
    // The established plugin's name for the same engine.
    ['openldap', createLdapBackend],
    ['pki', createPkiBackend],
    ['ssh', createSshBackend],
    ['totp', createTotpBackend],
    ['transit', createTransitBackend],
  ]),
  auth: new Map<string, BackendFactory>([
    ['approle', createAppRoleBackend],
    ['aws', createAwsAuthBackend],
    ['azure', createAzureAuthBackend],
    ['cert', createCertBackend],
    ['gcp', createGcpBackend],
    ['github', createGitHubBackend],
    ['jwt', createJwtBackend],
    ['kubernetes', createKubernetesBackend],
    ['ldap', createLdapAuthBackend],
    // One backend under both established names: `oidc` mounts are used for the browser flow.
    ['oidc', createJwtBackend],
    ['okta', createOktaBackend],
    ['userpass', createUserpassBackend],
  ]),
};

/**
 * The mounts a new configured server gets (`sys/init`): `secret/` is KV version 1.
 *
 * Spec 000 (point 3) says a fresh install has a `kv` engine at `secret/`, for every install, and
 * the spec wins where it speaks. It does not say which version. The established server mounts
 * nothing there outside dev mode (reference, secrets-core §3), so its clients cannot assume
 * version 2 on a configured server; the established servers that did mount `secret/` on every
 * install mounted KV version 1, and clients written for them (hvac's `v1/test_integration.py`
 * mounts version 1 at `secret/` only when nothing is there, then writes `secret/foo`) expect it.
 * So: `kv` without a version option, as the established version-1 mount looks.
 */
export const DEFAULT_MOUNTS: DefaultMount[] = [
  { path: 'secret/', input: { type: 'kv', description: 'key/value secret storage' } },
];

/**
 * The mounts a dev server gets: `secret/` is KV version 2 as on the established dev server
 * (`options: {"version":"2"}`), or version 1 with the hidden flag `-dev-kv-v1`.
 */
export function devDefaultMounts(kvVersion: '1' | '2' = '2'): DefaultMount[] {
  return [
    {
      path: 'secret/',
      input: { type: 'kv', description: 'key/value secret storage', options: { version: kvVersion } },
    },
  ];
}
