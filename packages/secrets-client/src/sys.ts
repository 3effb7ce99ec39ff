import type { Transport } from './transport.js';
import type {
  EnableMountInput,
  GenerateRootStatus,
  InitRequest,
  InitResponse,
  MountInfo,
  RekeyResult,
  RekeyStartRequest,
  RekeyStatus,
  RekeyVerifyResult,
  RekeyVerifyStatus,
  SealStatus,
  Secret,
  TuneMountInput,
} from './types.js';

/** Mount tables: `sys/mounts` (secrets engines) or `sys/auth` (auth methods). */
export interface MountsApi {
  /** Every mount, keyed by path with a trailing slash. */
  list(): Promise<Record<string, MountInfo>>;
  /** One mount by its exact path; `null` when nothing is mounted there. */
  read(path: string): Promise<MountInfo | null>;
  enable(path: string, input: EnableMountInput): Promise<void>;
  /** Disabling erases the mount's data; absent mounts are not an error. */
  disable(path: string): Promise<void>;
}

/** `sys/mounts` plus tuning, which only secrets engines expose here. */
export interface SecretsMountsApi extends MountsApi {
  /** Effective settings (`sys/mounts/:path/tune`). */
  readTune(path: string): Promise<Record<string, unknown>>;
  tune(path: string, input: TuneMountInput): Promise<void>;
  /**
   * The mount that serves `path`, as the token may see it (`sys/internal/ui/mounts/:path`, which
   * any token with some capability below the mount may read): its mount point with a trailing
   * slash and its settings. `null` when the server has no such endpoint (404); a mount the
   * token cannot use, or none at all, is an `ApiError` 403.
   */
  find(path: string): Promise<{ path: string; mount: MountInfo } | null>;
}

/** ACL policies (`sys/policies/acl`). */
export interface PoliciesApi {
  list(): Promise<string[]>;
  /** The policy text; `null` when there is no such policy. */
  read(name: string): Promise<string | null>;
  write(name: string, policy: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** Namespaces (`sys/namespaces`), as the established API documents them. */
export interface NamespacesApi {
  /** Child namespaces of the current one (`keys` end in `/`) and their details. */
  list(): Promise<{ keys: string[]; key_info: Record<string, unknown> }>;
  create(name: string, customMetadata?: Record<string, string>): Promise<Secret | null>;
  delete(name: string): Promise<void>;
}

/** `sys/rekey/*`: replace the unseal key shares (bare JSON answers, as established). */
export interface RekeyApi {
  status(): Promise<RekeyStatus>;
  start(request: RekeyStartRequest): Promise<RekeyStatus>;
  cancel(): Promise<void>;
  /** Submits one current share: the status, or the new shares once the threshold is reached. */
  update(key: string, nonce: string): Promise<RekeyStatus | RekeyResult>;
  verifyStatus(): Promise<RekeyVerifyStatus>;
  /** Restarts verification; answers the new nonce. */
  cancelVerify(): Promise<RekeyVerifyStatus>;
  verify(key: string, nonce: string): Promise<RekeyVerifyStatus | RekeyVerifyResult>;
}

/** `sys/generate-root/*`: a new root token from unseal shares. */
export interface GenerateRootApi {
  status(): Promise<GenerateRootStatus>;
  /** Without `otp`, the server generates one and shows it in this answer only. */
  start(otp?: string): Promise<GenerateRootStatus>;
  cancel(): Promise<void>;
  update(key: string, nonce: string): Promise<GenerateRootStatus>;
}

/** `sys/*` endpoints. */
export interface SysApi {
  /** `sys/seal-status` (no token needed). */
  status(): Promise<SealStatus>;
  /** Whether the server has been initialised (`GET sys/init`). */
  isInitialized(): Promise<boolean>;
  init(request: InitRequest): Promise<InitResponse>;
  /**
   * Submits one unseal key share (hex or base64), or a recovery share with an auto seal; returns
   * the progress. With `migrate`, the share is the old seal's, toward a seal migration.
   */
  unseal(key: string, options?: { migrate?: boolean }): Promise<SealStatus>;
  /** Forgets the shares submitted so far. */
  unsealReset(): Promise<SealStatus>;
  /** Needs a root token or `sudo` on `sys/seal`. */
  seal(): Promise<void>;
  /** `sys/storage/raft/snapshot*`; both need `sudo`. */
  snapshot: {
    /** A gzip tar of the whole store, as the server streams it. */
    save(): Promise<ReadableStream<Uint8Array>>;
    /** Replaces the store; `force` accepts a snapshot made under other unseal keys (the server then seals). */
    restore(snapshot: ReadableStream<Uint8Array> | Uint8Array, options?: { force?: boolean }): Promise<void>;
  };
  /**
   * `sys/monitor` (needs `sudo`): the server's log lines from now on, as text, until the stream is
   * cancelled. `logLevel` (default info) may be finer than the server's own; `logFormat` standard or json.
   */
  monitor(options?: { logLevel?: string; logFormat?: string }): Promise<ReadableStream<Uint8Array>>;
  rekey: RekeyApi;
  generateRoot: GenerateRootApi;
  mounts: SecretsMountsApi;
  auth: MountsApi;
  policies: PoliciesApi;
  namespaces: NamespacesApi;
}

export function sysApi(t: Transport): SysApi {
  return {
    status: async () => (await t.call('GET', 'sys/seal-status')).body as SealStatus,
    isInitialized: async () => ((await t.call('GET', 'sys/init')).body as { initialized: boolean }).initialized,
    init: async (request) => (await t.call('PUT', 'sys/init', { body: request })).body as InitResponse,
    unseal: async (key, options = {}) =>
      (await t.call('PUT', 'sys/unseal', { body: { key, ...(options.migrate ? { migrate: true } : {}) } }))
        .body as SealStatus,
    unsealReset: async () => (await t.call('PUT', 'sys/unseal', { body: { reset: true } })).body as SealStatus,
    seal: async () => {
      await t.call('PUT', 'sys/seal');
    },
    snapshot: {
      save: () => t.download('sys/storage/raft/snapshot'),
      restore: async (snapshot, o = {}) => {
        await t.call('POST', `sys/storage/raft/${o.force ? 'snapshot-force' : 'snapshot'}`, { bytes: snapshot });
      },
    },
    monitor: (o = {}) => t.download('sys/monitor', { log_level: o.logLevel, log_format: o.logFormat }),
    rekey: rekeyApi(t),
    generateRoot: generateRootApi(t),
    mounts: secretsMounts(t),
    auth: mountsApi(t, 'sys/auth'),
    policies: policiesApi(t),
    namespaces: namespacesApi(t),
  };
}

function rekeyApi(t: Transport): RekeyApi {
  return {
    status: async () => (await t.call('GET', 'sys/rekey/init')).body as RekeyStatus,
    start: async (request) => (await t.call('PUT', 'sys/rekey/init', { body: request })).body as RekeyStatus,
    cancel: async () => {
      await t.call('DELETE', 'sys/rekey/init');
    },
    update: async (key, nonce) =>
      (await t.call('PUT', 'sys/rekey/update', { body: { key, nonce } })).body as RekeyStatus | RekeyResult,
    verifyStatus: async () => (await t.call('GET', 'sys/rekey/verify')).body as RekeyVerifyStatus,
    cancelVerify: async () => (await t.call('DELETE', 'sys/rekey/verify')).body as RekeyVerifyStatus,
    verify: async (key, nonce) =>
      (await t.call('PUT', 'sys/rekey/verify', { body: { key, nonce } })).body as RekeyVerifyStatus | RekeyVerifyResult,
  };
}

function generateRootApi(t: Transport): GenerateRootApi {
  return {
    status: async () => (await t.call('GET', 'sys/generate-root/attempt')).body as GenerateRootStatus,
    start: async (otp) =>
      (await t.call('PUT', 'sys/generate-root/attempt', { body: otp ? { otp } : {} })).body as GenerateRootStatus,
    cancel: async () => {
      await t.call('DELETE', 'sys/generate-root/attempt');
    },
    update: async (key, nonce) =>
      (await t.call('PUT', 'sys/generate-root/update', { body: { key, nonce } })).body as GenerateRootStatus,
  };
}

/**
 * The root token a generation produced: `encoded` (unpadded base64) XOR the one-time pad,
 * as the established servers encode it.
 */
export function decodeRootToken(encoded: string, otp: string): string {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length !== otp.length) throw new Error('the encoded token and the OTP have different lengths');
  return Buffer.from(bytes.map((b, i) => b ^ otp.charCodeAt(i))).toString('utf8');
}

const trim = (path: string) => path.replace(/^\/+|\/+$/g, '');

function mountsApi(t: Transport, base: string): MountsApi {
  return {
    list: async () => dataOf<Record<string, MountInfo>>((await t.call('GET', base)).body) ?? {},
    read: async (path) => {
      const res = await t.send('GET', `${base}/${trim(path)}`);
      if (res.status === 404) return null;
      if (res.status >= 400) throw t.errorFor(res, 'GET', `${base}/${trim(path)}`);
      return dataOf<MountInfo>(res.body);
    },
    enable: async (path, input) => {
      await t.call('PUT', `${base}/${trim(path)}`, { body: input });
    },
    disable: async (path) => {
      await t.call('DELETE', `${base}/${trim(path)}`);
    },
  };
}

function secretsMounts(t: Transport): SecretsMountsApi {
  const base = mountsApi(t, 'sys/mounts');
  return {
    ...base,
    readTune: async (path) => dataOf((await t.call('GET', `sys/mounts/${trim(path)}/tune`)).body) ?? {},
    tune: async (path, input) => {
      await t.call('PUT', `sys/mounts/${trim(path)}/tune`, { body: input });
    },
    find: async (path) => {
      const res = await t.send('GET', `sys/internal/ui/mounts/${trim(path)}`, { isUnwrapped: true });
      if (res.status === 404) return null;
      if (res.status >= 400) throw t.errorFor(res, 'GET', `sys/internal/ui/mounts/${trim(path)}`);
      const mount = dataOf<MountInfo & { path: string }>(res.body);
      return mount ? { path: mount.path, mount } : null;
    },
  };
}

function policiesApi(t: Transport): PoliciesApi {
  return {
    list: async () => {
      const res = await t.send('LIST', 'sys/policies/acl');
      if (res.status === 404) return [];
      if (res.status >= 400) throw t.errorFor(res, 'LIST', 'sys/policies/acl');
      return dataOf<{ keys: string[] }>(res.body)?.keys ?? [];
    },
    read: async (name) => {
      const res = await t.send('GET', `sys/policies/acl/${name}`);
      if (res.status === 404) return null;
      if (res.status >= 400) throw t.errorFor(res, 'GET', `sys/policies/acl/${name}`);
      return dataOf<{ policy: string }>(res.body)?.policy ?? null;
    },
    write: async (name, policy) => {
      await t.call('PUT', `sys/policies/acl/${name}`, { body: { policy } });
    },
    delete: async (name) => {
      await t.call('DELETE', `sys/policies/acl/${name}`);
    },
  };
}

function namespacesApi(t: Transport): NamespacesApi {
  return {
    list: async () => {
      const res = await t.send('LIST', 'sys/namespaces');
      if (res.status === 404 && isEmptyError(res.body)) return { keys: [], key_info: {} };
      if (res.status >= 400) throw t.errorFor(res, 'LIST', 'sys/namespaces');
      const data = dataOf<{ keys?: string[]; key_info?: Record<string, unknown> }>(res.body);
      return { keys: data?.keys ?? [], key_info: data?.key_info ?? {} };
    },
    create: async (name, customMetadata) => {
      const body = customMetadata ? { custom_metadata: customMetadata } : {};
      return ((await t.call('PUT', `sys/namespaces/${trim(name)}`, { body })).body as Secret | undefined) ?? null;
    },
    delete: async (name) => {
      await t.call('DELETE', `sys/namespaces/${trim(name)}`);
    },
  };
}

function dataOf<T = Record<string, unknown>>(body: unknown): T | null {
  return ((body as { data?: T } | undefined)?.data ?? null) as T | null;
}

function isEmptyError(body: unknown): boolean {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) && errors.length === 0;
}
