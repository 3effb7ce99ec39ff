import { createHash } from 'node:crypto';
import type sshpk from 'sshpk';
import type { SystemView } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { EntityFacts } from '../../logical/identity-template.js';
import {
  allowedEntries,
  commaList,
  defaultExtensionsOf,
  defaultUserOf,
  type FilledExtensions,
  filledDefaultUser,
} from './role-templates.js';
import type { SshRole } from './stores.js';

/** What `sign` and `issue` take besides the key. */
export interface CertificateAsk {
  ttl: number;
  valid_principals: string;
  cert_type: string;
  key_id: string;
  critical_options: Record<string, unknown>;
  extensions: Record<string, unknown>;
}

/** Whether a host principal is allowed by the role's domains (`allow_bare_domains`, `allow_subdomains`). */
function isHostAllowed(role: SshRole, domains: readonly string[], host: string): boolean {
  if (role.allowed_domains === '*') return true;
  return domains.some(
    (domain) => (role.allow_bare_domains && host === domain) || (role.allow_subdomains && host.endsWith(`.${domain}`)),
  );
}

/**
 * The principals: those asked for (else the role's default user), each allowed by the role;
 * the role's `*_template` entries are filled from the caller's `entity` first.
 */
export function principalsOf(
  role: SshRole,
  type: 'user' | 'host',
  asked: string,
  entity: EntityFacts | undefined,
): string[] {
  const requested = commaList(asked || (type === 'user' ? defaultUserOf(role, entity) : ''));
  if (requested.length === 0) return [];
  const allowedText = type === 'user' ? role.allowed_users : role.allowed_domains;
  if (type === 'user' && allowedText === '*') return requested;
  if (allowedText === '' && !(type === 'user' && role.default_user)) {
    throw new InvalidRequestError('role is not configured to allow any principals');
  }
  const allowed =
    type === 'user'
      ? allowedEntries(role, role.allowed_users, role.allowed_users_template, entity)
      : allowedEntries(role, role.allowed_domains, role.allowed_domains_template, entity);
  // The default user is allowed as well (filled, when it is a template the caller's identity fills).
  const isDefaultUser = (principal: string) =>
    role.default_user !== '' && (!asked || principal === filledDefaultUser(role, entity));
  for (const principal of requested) {
    const ok =
      type === 'user'
        ? allowed.includes(principal) || isDefaultUser(principal)
        : isHostAllowed(role, allowed, principal);
    if (!ok) throw new InvalidRequestError(`${principal} is not a valid value for valid_principals`);
  }
  return requested;
}

/** The certificate type asked for, if the role signs it. */
export function certTypeOf(role: SshRole, asked: string): 'user' | 'host' {
  const type = asked || 'user';
  if (type !== 'user' && type !== 'host')
    throw new InvalidRequestError(`cert_type must be "user" or "host", not "${type}"`);
  if (type === 'user' && !role.allow_user_certificates)
    throw new InvalidRequestError('Either role not allowed to issue user certificates');
  if (type === 'host' && !role.allow_host_certificates)
    throw new InvalidRequestError('Either role not allowed to issue host certificates');
  return type;
}

/** The TTL: asked for, else the role's, else the mount's; capped by the role's max, else the mount's. */
export function ttlOf(role: SshRole, asked: number, system: SystemView): number {
  const ttl = asked || role.ttl || system.defaultLeaseTtlSeconds();
  return Math.min(ttl, role.max_ttl || system.maxLeaseTtlSeconds());
}

/** Critical options: asked for (each on `allowed_critical_options`, when it lists any), else the role's defaults. */
export function criticalOptionsOf(role: SshRole, asked: Record<string, unknown>): Map<string, string> {
  const names = Object.keys(asked);
  if (names.length === 0) return new Map(Object.entries(role.default_critical_options));
  const allowed = commaList(role.allowed_critical_options);
  const refused = names.filter(
    (n) => role.allowed_critical_options !== '' && role.allowed_critical_options !== '*' && !allowed.includes(n),
  );
  if (refused.length > 0) throw new InvalidRequestError(`critical options not on allowed list: ${refused.join(', ')}`);
  return new Map(names.map((n) => [n, String(asked[n] ?? '')]));
}

/**
 * Extensions: asked for (each on `allowed_extensions`; `*` any), else the role's defaults
 * (templated values filled from `entity` with `default_extensions_template`).
 */
export function extensionsOf(
  role: SshRole,
  asked: Record<string, unknown>,
  entity: EntityFacts | undefined,
): FilledExtensions {
  const names = Object.keys(asked);
  if (names.length === 0) return defaultExtensionsOf(role, entity);
  const allowed = commaList(role.allowed_extensions);
  const refused = names.filter((n) => role.allowed_extensions !== '*' && !allowed.includes(n));
  if (refused.length > 0) throw new InvalidRequestError(`extensions [${refused.join(' ')}] are not on allowed list`);
  return { extensions: new Map(names.map((n) => [n, String(asked[n] ?? '')])), isMissingEntity: false };
}

/** The key ID: asked for (when the role allows it), else `key_id_format` (default `vault-{{token_display_name}}-{{public_key_hash}}`). */
export function keyIdOf(
  role: SshRole,
  o: { asked: string; roleName: string; displayName: string; key: sshpk.Key },
): string {
  if (o.asked) {
    if (!role.allow_user_key_ids) throw new InvalidRequestError('setting key_id is not allowed by role');
    return o.asked;
  }
  const hash = createHash('sha256').update(o.key.toBuffer('rfc4253')).digest('hex');
  return (role.key_id_format || 'vault-{{token_display_name}}-{{public_key_hash}}')
    .replaceAll('{{token_display_name}}', o.displayName)
    .replaceAll('{{role_name}}', o.roleName)
    .replaceAll('{{public_key_hash}}', hash);
}

/** Refuses a key whose type or size `allowed_user_key_lengths` does not list (when it lists any). */
export function checkKeyLength(role: SshRole, key: sshpk.Key): void {
  const lengths = role.allowed_user_key_lengths;
  if (Object.keys(lengths).length === 0) return;
  const names =
    key.type === 'ecdsa'
      ? ['ec', 'ecdsa', `ecdsa-sha2-nistp${key.size}`]
      : key.type === 'rsa'
        ? ['rsa', 'ssh-rsa']
        : [key.type, `ssh-${key.type}`];
  const sizes = names.flatMap((n) => lengths[n] ?? []);
  const listed = names.some((n) => lengths[n] !== undefined);
  if (!listed) throw new InvalidRequestError(`key type ${key.type} is not allowed`);
  if (key.type !== 'ed25519' && !sizes.includes(key.size) && !sizes.includes(0)) {
    throw new InvalidRequestError(`key size ${key.size} is not allowed for key type ${key.type}`);
  }
}
