import { CodedError } from '@ward/base';
import { type Fields, field } from '../../../framework/index.js';
import type { Storage } from '../../../logical/storage.js';
import { resolveIssuer } from '../issuers.js';
import type { IssuerRecord } from '../pki-store.js';
import { DEFAULT_ROLE, type RoleRecord, roleStore } from '../role-store.js';
import { type AcmeConfig, acmeStore } from './acme-store.js';
import { AcmeProblem } from './jws.js';

/**
 * The path prefixes an ACME directory lives under, as established: the mount's default one, one
 * per role, one per issuer, one per issuer and role. Each has every ACME endpoint below it.
 */
export const DIRECTORY_PREFIXES = [
  'acme',
  'roles/:role/acme',
  'issuer/:issuer_ref/acme',
  'issuer/:issuer_ref/roles/:role/acme',
] as const;

/** The path fields of a directory prefix: `role` and `issuer_ref` where it names them. */
export function prefixFields(prefix: string): Fields {
  const fields: Fields = {};
  if (prefix.includes(':role')) fields.role = field.path({ description: 'The role whose ACME directory this is.' });
  if (prefix.includes(':issuer_ref'))
    fields.issuer_ref = field.path({ description: 'The issuer whose ACME directory this is.' });
  return fields;
}

/** One ACME directory as a request reached it: its URLs, and the role and issuer its orders use. */
export interface AcmeDirectory {
  /** The directory's path in the mount, with its trailing slash: `acme/`, `roles/web/acme/`, … */
  prefix: string;
  /** The directory's URL, without a trailing slash: `config/cluster` `path` + `/` + prefix. */
  base: string;
  config: AcmeConfig;
  /** The role orders are checked against and issued under; the directory's, the default policy's, or sign-verbatim. */
  role: RoleRecord;
  /** The role's name; '' for sign-verbatim. */
  roleName: string;
  issuer: IssuerRecord;
}

/** The directory part (`…/acme/`) of a request path below it. */
export function prefixOf(path: string): string {
  const slashed = `/${path}`;
  return `${slashed.slice(1, slashed.lastIndexOf('/acme/') + 1)}acme/`;
}

/** The role of the established sign-verbatim policy: any name, the CSR's key, stored, no lease. */
function signVerbatimRole(issuerRef: string): RoleRecord {
  return {
    ...DEFAULT_ROLE,
    allow_any_name: true,
    enforce_hostnames: false,
    key_type: 'any',
    generate_lease: false,
    no_store: false,
    issuer_ref: issuerRef,
  };
}

async function acmeRole(storage: Storage, name: string): Promise<RoleRecord> {
  const role = await roleStore.get(storage, name);
  if (!role) throw new AcmeProblem('malformed', 'role does not exist');
  if (role.no_store) throw new AcmeProblem('serverInternal', 'role can not be used as NoStore is set to true', 500);
  return { ...role, generate_lease: false };
}

/** The issuer `ref` names, if ACME may sign with it (issuance usage and a key). */
async function acmeIssuer(storage: Storage, ref: string): Promise<IssuerRecord> {
  const issuer = await resolveIssuer(storage, ref || 'default').catch((err: unknown) => {
    if (err instanceof CodedError) throw new AcmeProblem('malformed', 'issuer does not exist');
    throw err;
  });
  if (!issuer.usage.includes('issuing-certificates') || issuer.key_id === '')
    throw new AcmeProblem('serverInternal', 'issuer missing proper issuance usage or key', 500);
  return issuer;
}

/** Whether `allowed` (issuer references, or `*`) names `issuer`. */
async function isIssuerAllowed(storage: Storage, allowed: string[], issuer: IssuerRecord): Promise<boolean> {
  if (allowed.length === 1 && allowed[0] === '*') return true;
  for (const ref of allowed) {
    const candidate = await resolveIssuer(storage, ref).catch(() => undefined);
    if (candidate?.issuer_id === issuer.issuer_id) return true;
  }
  return false;
}

/**
 * The directory a request to `path` (relative to the mount) is in, as established: ACME must be
 * enabled and `config/cluster` `path` set; a role in the path must exist, keep its certificates
 * and be in `allowed_roles`; without one, `default_directory_policy` decides (`sign-verbatim`,
 * `role:<name>` or `forbid`). The issuer is the path's, else the role's; it must be in
 * `allowed_issuers`. Unless `allow_role_ext_key_usage`, certificates are for servers only.
 */
export async function directoryOf(
  storage: Storage,
  path: string,
  captures: { role?: string; issuer_ref?: string },
): Promise<AcmeDirectory> {
  const config = await acmeStore.config(storage);
  if (!config.enabled) throw new AcmeProblem('unauthorized', 'ACME is disabled in configuration', 403);
  const { path: mountUrl } = await acmeStore.cluster(storage);
  if (!mountUrl)
    throw new AcmeProblem(
      'serverInternal',
      "ACME feature requires local cluster 'path' field configuration to be set",
      500,
    );
  const prefix = prefixOf(path);
  const requestedRole = captures.role ?? '';
  const requestedIssuer = captures.issuer_ref ?? '';
  let role: RoleRecord;
  let roleName = requestedRole;
  if (requestedRole === '') {
    const policy = config.default_directory_policy;
    if (policy === 'forbid')
      throw new AcmeProblem('serverInternal', 'default directory not allowed by ACME policy', 500);
    if (policy.startsWith('role:')) {
      roleName = policy.slice('role:'.length);
      role = await acmeRole(storage, roleName);
    } else role = signVerbatimRole(requestedIssuer);
  } else {
    role = await acmeRole(storage, requestedRole);
    const anyRole = config.allowed_roles.length === 1 && config.allowed_roles[0] === '*';
    if (!anyRole && !config.allowed_roles.includes(requestedRole))
      throw new AcmeProblem('serverInternal', 'specified role not allowed by ACME policy', 500);
  }
  const issuer = await acmeIssuer(storage, requestedIssuer || role.issuer_ref);
  if (!(await isIssuerAllowed(storage, config.allowed_issuers, issuer)))
    throw new AcmeProblem('serverInternal', 'specified issuer not allowed by ACME policy', 500);
  if (!config.allow_role_ext_key_usage)
    role = {
      ...role,
      ext_key_usage: ['ServerAuth'],
      ext_key_usage_oids: [],
      server_flag: true,
      client_flag: false,
      code_signing_flag: false,
      email_protection_flag: false,
    };
  return {
    prefix,
    base: `${mountUrl.replace(/\/+$/, '')}/${prefix.replace(/\/$/, '')}`,
    config,
    role,
    roleName,
    issuer,
  };
}
