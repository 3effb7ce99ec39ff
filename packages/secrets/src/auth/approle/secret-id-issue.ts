import { randomUuid } from '@ward/base';
import { areCidrsWithin, parseCidrs } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { AppRoleDeps } from './deps.js';
import type { RoleRecord } from './role-store.js';
import type { SecretIdRecord } from './secret-id-store.js';

/** What a caller asks of a new secret id. Absent limits take the role's. */
export interface SecretIdRequest {
  metadata: Record<string, string>;
  cidrList: string[];
  tokenBoundCidrs: string[];
  ttlSeconds?: number;
  numUses?: number;
}

/** The role a secret id is asked for: it must exist and use secret ids. */
export async function requireSecretIdRole(d: AppRoleDeps, storage: Storage, name: string): Promise<RoleRecord> {
  const role = await d.roles.get(storage, name);
  if (!role) throw new InvalidRequestError(`role "${name}" does not exist`);
  if (!role.bind_secret_id) throw new InvalidRequestError('bind_secret_id is not set on the role');
  return role;
}

/**
 * The record of a new secret id under the role's limits, as established: its uses and TTL
 * may only narrow the role's, its CIDR blocks must lie within the role's.
 */
export function secretIdRecord(d: AppRoleDeps, role: RoleRecord, asked: SecretIdRequest): SecretIdRecord {
  const numUses = asked.numUses ?? role.secret_id_num_uses;
  if (numUses < 0) throw new InvalidRequestError('num_uses cannot be negative');
  if (role.secret_id_num_uses > 0 && (numUses === 0 || numUses > role.secret_id_num_uses)) {
    throw new InvalidRequestError("num_uses cannot be higher than the role's secret_id_num_uses");
  }
  const ttl = asked.ttlSeconds ?? role.secret_id_ttl;
  if (ttl < 0) throw new InvalidRequestError('ttl cannot be negative');
  if (role.secret_id_ttl > 0 && (ttl === 0 || ttl > role.secret_id_ttl)) {
    throw new InvalidRequestError("ttl cannot be longer than the role's secret_id_ttl");
  }
  const cidrList = parseCidrs(asked.cidrList, 'cidr_list');
  if (role.secret_id_bound_cidrs.length > 0 && !areCidrsWithin(cidrList, role.secret_id_bound_cidrs)) {
    throw new InvalidRequestError(
      'failed to verify the CIDR restrictions set on the secret ID: the CIDR blocks are not a subset of the role’s',
    );
  }
  const tokenCidrs = parseCidrs(asked.tokenBoundCidrs, 'token_bound_cidrs');
  if (role.token.token_bound_cidrs.length > 0 && !areCidrsWithin(tokenCidrs, role.token.token_bound_cidrs)) {
    throw new InvalidRequestError(
      'failed to verify the token CIDR restrictions set on the secret ID: the CIDR blocks are not a subset of the role’s',
    );
  }
  const now = d.clock.now();
  return {
    secret_id_accessor: randomUuid(d.random),
    secret_id_num_uses: numUses,
    secret_id_ttl: ttl,
    creation_time_ms: now,
    last_updated_time_ms: now,
    expiration_time_ms: ttl > 0 ? now + ttl * 1000 : 0,
    metadata: { ...asked.metadata },
    cidr_list: cidrList,
    token_bound_cidrs: tokenCidrs,
  };
}

/** Stores a secret id; a custom one already registered is refused. */
export async function storeSecretId(
  d: AppRoleDeps,
  storage: Storage,
  roleName: string,
  secretId: string,
  record: SecretIdRecord,
): Promise<Record<string, unknown>> {
  await d.secretIds.locked(roleName, secretId, async (key) => {
    if (await d.secretIds.get(storage, key)) throw new InvalidRequestError('SecretID is already registered');
    await d.secretIds.create(storage, key, record);
  });
  return {
    secret_id: secretId,
    secret_id_accessor: record.secret_id_accessor,
    secret_id_ttl: record.secret_id_ttl,
    secret_id_num_uses: record.secret_id_num_uses,
  };
}

const ZERO_TIME = '0001-01-01T00:00:00Z';

/** The read view of a secret id (lookup by value or by accessor). */
export function secretIdReadData(record: SecretIdRecord): Record<string, unknown> {
  return {
    cidr_list: record.cidr_list,
    creation_time: new Date(record.creation_time_ms).toISOString(),
    expiration_time: record.expiration_time_ms > 0 ? new Date(record.expiration_time_ms).toISOString() : ZERO_TIME,
    last_updated_time: new Date(record.last_updated_time_ms).toISOString(),
    metadata: record.metadata,
    secret_id_accessor: record.secret_id_accessor,
    secret_id_num_uses: record.secret_id_num_uses,
    secret_id_ttl: record.secret_id_ttl,
    token_bound_cidrs: record.token_bound_cidrs,
  };
}
