import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HealthResponse, InitResponse, InitStatus, LeaderResponse, SealStatus } from '@ward/secrets-client';
import type { Core } from '../core/core.js';
import { InvalidRequestError, UnsupportedOperationError } from '../logical/errors.js';
import { rfc3339Nano } from '../logical/time.js';
import { sendJson } from './respond.js';

/** Facts about this build that status endpoints report. */
export interface ServerInfo {
  version: string;
  buildDate: string;
  storageType: string;
}

export interface RawContext {
  core: Core;
  info: ServerInfo;
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  /** The parsed JSON body (read lazily: only writes have one). */
  body: () => Promise<Record<string, unknown>>;
}

type RawHandler = (ctx: RawContext) => Promise<void>;

/**
 * Routes that answer without the envelope and mostly without a token: they must work
 * while the server is sealed or not yet initialised.
 */
export const RAW_ROUTES: ReadonlyMap<string, RawHandler> = new Map(
  Object.entries({
    'sys/init': async (ctx) => {
      if (isRead(ctx))
        return sendJson(ctx.res, 200, { initialized: await ctx.core.isInitialized() } satisfies InitStatus);
      requireWrite(ctx);
      const body = await ctx.body();
      if (!isAbsent(body.pgp_keys) || !isAbsent(body.root_token_pgp_key) || !isAbsent(body.recovery_pgp_keys)) {
        throw new InvalidRequestError('PGP-encrypted key shares are not supported by this server');
      }
      const { isRecoverySeal, type } = ctx.core.sealKeys;
      checkInitFamily(body, isRecoverySeal, type);
      // An auto seal has one stored share, which nobody holds.
      const { keys, recoveryKeys, rootToken } = await ctx.core.initialize({
        shares: isRecoverySeal ? 1 : intParam(body.secret_shares, 'secret_shares'),
        threshold: isRecoverySeal ? 1 : intParam(body.secret_threshold, 'secret_threshold'),
        recoveryShares: intParam(body.recovery_shares ?? 0, 'recovery_shares'),
        recoveryThreshold: intParam(body.recovery_threshold ?? 0, 'recovery_threshold'),
      });
      sendJson(ctx.res, 200, {
        keys: keys.map((k) => Buffer.from(k).toString('hex')),
        keys_base64: keys.map((k) => Buffer.from(k).toString('base64')),
        ...(recoveryKeys.length > 0
          ? {
              recovery_keys: recoveryKeys.map((k) => Buffer.from(k).toString('hex')),
              recovery_keys_base64: recoveryKeys.map((k) => Buffer.from(k).toString('base64')),
            }
          : {}),
        root_token: rootToken,
      } satisfies InitResponse);
    },

    'sys/seal-status': async (ctx) => {
      if (!isRead(ctx)) throw new UnsupportedOperationError('');
      sendJson(ctx.res, 200, await sealStatusBody(ctx));
    },

    'sys/unseal': async (ctx) => {
      requireWrite(ctx);
      const body = lowerKeys(await ctx.body());
      if (body.reset === true || body.reset === 'true') {
        ctx.core.resetUnsealProgress();
      } else if (typeof body.key !== 'string' || body.key === '') {
        throw new InvalidRequestError("'key' must be specified in request body as JSON, or 'reset' set to true");
      } else {
        await ctx.core.submitUnsealKey(body.key, { migrate: body.migrate === true || body.migrate === 'true' });
      }
      sendJson(ctx.res, 200, await sealStatusBody(ctx));
    },

    'sys/health': async (ctx) => {
      if (!isRead(ctx)) throw new UnsupportedOperationError('');
      const { status, body } = await healthOf(ctx);
      sendJson(ctx.res, status, body, ctx.req);
    },

    'sys/leader': async (ctx) => {
      if (!isRead(ctx)) throw new UnsupportedOperationError('');
      const ha = await ctx.core.haStatus();
      const isSelf = ha.enabled ? ha.isSelf : !ctx.core.isSealed();
      sendJson(ctx.res, 200, {
        ha_enabled: ha.enabled,
        is_self: isSelf,
        active_time: isSelf ? rfc3339Nano(ctx.core.activeSinceMs) : '0001-01-01T00:00:00Z',
        leader_address: ha.leader?.apiAddr ?? '',
        leader_cluster_address: ha.leader?.clusterAddr ?? '',
        performance_standby: ctx.core.isPerformanceStandby(),
        performance_standby_last_remote_wal: 0,
      } satisfies LeaderResponse);
    },
  } satisfies Record<string, RawHandler>),
);

async function sealStatusBody(ctx: RawContext): Promise<SealStatus> {
  return {
    ...(await ctx.core.sealStatus()),
    version: ctx.info.version,
    build_date: ctx.info.buildDate,
    storage_type: ctx.info.storageType,
    removed_from_cluster: false,
  } satisfies SealStatus;
}

/**
 * Health with the established precedence (uninitialised → sealed → performance standby → standby →
 * active) and overridable codes.
 */
async function healthOf(ctx: RawContext) {
  const initialized = await ctx.core.isInitialized();
  const standby = ctx.core.isStandby();
  // Only a standby asks (the HA status reads etcd): load balancers poll this endpoint often.
  const perfStandby = standby && (await ctx.core.haStatus()).isPerfStandby === true;
  const sealed = ctx.core.isSealed() && !standby;
  const status = healthStatus(ctx.query, { initialized, sealed, standby, perfStandby });
  const cluster = sealed ? undefined : ctx.core.cluster();
  return {
    status,
    body: {
      initialized,
      sealed,
      standby,
      performance_standby: perfStandby,
      replication_performance_mode: 'disabled',
      replication_dr_mode: 'disabled',
      server_time_utc: Math.floor(ctx.core.clock.now() / 1000),
      version: ctx.info.version,
      ...cluster,
    } satisfies HealthResponse,
  };
}

/**
 * `standbyok` / `perfstandbyok` make a (performance) standby count as healthy, for a load balancer
 * that sends everything to any unsealed server; a performance standby needs `perfstandbyok`.
 */
export function healthStatus(
  query: URLSearchParams,
  s: { initialized: boolean; sealed: boolean; standby: boolean; perfStandby: boolean },
): number {
  const code = (names: string[], fallback: number) => {
    const raw = names.map((name) => query.get(name)).find((value) => value !== null && value !== '');
    if (raw === undefined || raw === null) return fallback;
    if (!/^\d+$/.test(raw)) throw new InvalidRequestError('');
    return Number(raw);
  };
  const flag = (name: string) => ['true', '1', ''].includes(query.get(name) ?? 'false');
  if (!s.initialized) return code(['uninitcode'], 501);
  if (s.sealed) return code(['sealedcode'], 503);
  if (s.perfStandby && !flag('perfstandbyok')) return code(['performancestandbycode', 'perfstandbycode'], 473);
  if (s.standby && !s.perfStandby && !flag('standbyok')) return code(['standbycode'], 429);
  return code(['activecode'], 200);
}

function isRead(ctx: RawContext): boolean {
  return ctx.req.method === 'GET' || ctx.req.method === 'HEAD';
}

function requireWrite(ctx: RawContext): void {
  if (ctx.req.method !== 'PUT' && ctx.req.method !== 'POST') throw new UnsupportedOperationError('');
}

/**
 * Clients send optional fields they were not given as null or empty (hvac's `initialize()` always
 * sends `"root_token_pgp_key": null`); the established server reads those as not given.
 */
function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * `secret_*` belong to Shamir, `recovery_*` to an auto seal; the other family is refused with
 * the established text, naming the parameters given (0 counts as not given, as there).
 */
function checkInitFamily(body: Record<string, unknown>, isRecoverySeal: boolean, sealType: string): void {
  const given = (names: string[]) => names.filter((n) => !isAbsent(body[n]) && body[n] !== 0 && body[n] !== '0');
  const wrong = isRecoverySeal
    ? given(['secret_shares', 'secret_threshold'])
    : given(['recovery_shares', 'recovery_threshold']);
  if (wrong.length > 0) {
    throw new InvalidRequestError(`parameters ${wrong.join(',')} not applicable to seal type ${sealType}`);
  }
}

function intParam(value: unknown, name: string): number {
  const n = typeof value === 'string' && value !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new InvalidRequestError(`${name} must be an integer`);
  return n;
}

/** `sys/unseal` matches its field names case-insensitively, as established servers do. */
function lowerKeys(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v]));
}
