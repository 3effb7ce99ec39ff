import type { ConnectionOptions } from 'node:tls';
import { type Client, ResultCodeError } from 'ldapts';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import type { LdapConfig } from './config-store.js';
import { createClient } from './ldap-client.js';

/** How long after `rotate-root` the replaced bind password is still tried (as established). */
const PRIOR_PASSWORD_GRACE_MS = 10 * 60_000;

function tlsOptions(config: LdapConfig): ConnectionOptions {
  return {
    rejectUnauthorized: !config.insecure_tls,
    ...(config.certificate ? { ca: config.certificate } : {}),
    ...(config.client_tls_cert ? { cert: config.client_tls_cert, key: config.client_tls_key } : {}),
    minVersion: tlsVersion(config.tls_min_version),
    maxVersion: tlsVersion(config.tls_max_version),
  };
}

function tlsVersion(name: string): 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' {
  return ({ tls10: 'TLSv1', tls11: 'TLSv1.1', tls12: 'TLSv1.2', tls13: 'TLSv1.3' } as const)[name] ?? 'TLSv1.2';
}

/** `InvalidCredentialsError` → `Invalid Credentials`: the result's name as the established engine shows it. */
function resultName(err: ResultCodeError): string {
  return err.constructor.name.replace(/Error$/, '').replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** The directory's own words for a failure, for the 502 the client sees. */
export function upstream(action: string, err: unknown): UpstreamError {
  const detail =
    err instanceof ResultCodeError
      ? `LDAP Result Code ${err.code} "${resultName(err)}": ${err.message}`
      : String((err as Error).message ?? err);
  return new UpstreamError(`${action}: ${detail}`, { cause: err });
}

/**
 * Connects to the first URL of the config that answers (in order; a URL that cannot be
 * reached within `connection_timeout` is skipped), issues StartTLS when asked, and binds as
 * `binddn`, with the password `rotate-root` replaced when the current one fails within 10 minutes.
 * `anonymous`: an anonymous bind instead (the ldap auth method's `discoverdn` without `binddn`).
 */
export async function connectBound(
  config: LdapConfig,
  nowMs: number,
  reload: () => Promise<LdapConfig | undefined>,
  anonymous = false,
): Promise<Client> {
  if (!anonymous && !config.bindpass)
    throw new InvalidRequestError('unable to bind due to lack of configured password');
  const user = config.upndomain ? `${config.binddn}@${config.upndomain}` : config.binddn;
  const failures: string[] = [];
  for (const url of config.url) {
    const client = createClient(
      {
        url,
        connectTimeout: config.connection_timeout * 1000,
        timeout: config.request_timeout * 1000,
        // ldapts speaks TLS from the start whenever it is given TLS options: only for ldaps://.
        ...(url.startsWith('ldaps://') ? { tlsOptions: tlsOptions(config) } : {}),
      },
      config.dereference_aliases,
    );
    try {
      if (config.starttls && url.startsWith('ldap://')) {
        // The certificate is checked against the URL's host (ldapts would check it against `localhost`).
        await client.startTLS({ ...tlsOptions(config), host: new URL(url).hostname });
      }
      // ldapts connects on the first request: the bind. An answer (even a refusal) means this URL is up.
      if (anonymous) await client.bind('', '');
      else await bind(client, user, config, nowMs, reload);
      return client;
    } catch (err) {
      await client.unbind().catch(() => {});
      if (err instanceof UpstreamError) throw err;
      failures.push(`${url}: ${(err as Error).message}`);
    }
  }
  throw new UpstreamError(`failed to connect to the directory: ${failures.join('; ')}`);
}

/** The passwords a bind may use, best first: current, the one `rotate-root` is setting, the one it replaced. */
function bindPasswords(config: LdapConfig, nowMs: number): string[] {
  const isPriorValid = nowMs - config.last_bind_password_rotation_ms < PRIOR_PASSWORD_GRACE_MS;
  const all = [config.bindpass, config.pending_bindpass ?? '', isPriorValid ? config.last_bindpass : ''];
  return [...new Set(all.filter((p) => p !== ''))];
}

/**
 * Binds with each known password in turn. When none works, the config is read again: a
 * `rotate-root` that ran since this request read it may have changed the password, and the
 * request should keep working rather than fail.
 */
async function bind(
  client: Client,
  user: string,
  config: LdapConfig,
  nowMs: number,
  reload: () => Promise<LdapConfig | undefined>,
): Promise<void> {
  const tried = new Set<string>();
  let last: unknown;
  for (const source of [async () => config, reload]) {
    const current = await source();
    for (const password of current ? bindPasswords(current, nowMs) : []) {
      if (tried.has(password)) continue;
      tried.add(password);
      try {
        await client.bind(user, password);
        return;
      } catch (err) {
        if (!(err instanceof ResultCodeError)) throw err;
        last = err;
      }
    }
  }
  throw upstream(`failed to bind with ${tried.size > 1 ? 'current and prior passwords' : 'current password'}`, last);
}
