import { type Clock, FakeClock, type Random, SeededRandom, silentLogger } from '@ward/base';
import { NotFoundError, UnsupportedPathError } from '../logical/errors.js';
import type { BackendRequest, Operation } from '../logical/request.js';
import type { LogicalResponse } from '../logical/response.js';
import type { Storage } from '../logical/storage.js';
import { InmemStorage } from '../storage/index.js';
import type { Backend, BackendContext } from './backend.js';
import { writeOperation } from './write-operation.js';

export interface TestBackendOptions<S extends Storage = InmemStorage> {
  clock?: Clock;
  random?: Random;
  /** The mount's options (KV's `version`). */
  options?: Record<string, string>;
  /** The mount's TTLs in seconds (default 768 h each, as an untuned mount). */
  defaultLeaseTtlSeconds?: number;
  maxLeaseTtlSeconds?: number;
  /**
   * The mount's storage: pass the one of an earlier test backend to restart over it, or (benchmarks)
   * a mount view of a real barrier.
   */
  storage?: S;
  /** Password policies by name, each a generator (the core's policies live in `sys/`). */
  passwordPolicies?: ReadonlyMap<string, () => string>;
}

export interface TestBackend<S extends Storage = InmemStorage> {
  backend: Backend;
  /** The mount's storage (in memory, no barrier, unless one was given). */
  storage: S;
  clock: Clock;
  /** One request as the core would make it: one path match, `create` vs `update` from the existence check. */
  request(operation: Operation, path: string, data?: Record<string, unknown>): Promise<LogicalResponse | undefined>;
  read(path: string, data?: Record<string, unknown>): Promise<LogicalResponse | undefined>;
  write(path: string, data?: Record<string, unknown>): Promise<LogicalResponse | undefined>;
  list(path: string): Promise<LogicalResponse | undefined>;
  delete(path: string): Promise<LogicalResponse | undefined>;
}

const DEFAULT_TTL_SECONDS = 2_764_800;

/**
 * An engine's paths without a socket or a core (OpenBao's `logical.TestBackendConfig`):
 * in-memory storage, a fake clock, seeded randomness, a static system view, and the
 * caller of a root token. Errors are thrown as the typed `LogicalError`s the core would map.
 */
export async function testBackend<S extends Storage = InmemStorage>(
  factory: (ctx: BackendContext) => Backend | Promise<Backend>,
  o: TestBackendOptions<S> = {},
): Promise<TestBackend<S>> {
  const storage = (o.storage ?? new InmemStorage()) as S;
  const clock = o.clock ?? new FakeClock('2024-01-01T00:00:00Z');
  const backend = await factory({
    storage,
    logger: silentLogger,
    clock,
    random: o.random ?? new SeededRandom(1),
    options: o.options ?? {},
    system: {
      defaultLeaseTtlSeconds: () => o.defaultLeaseTtlSeconds ?? DEFAULT_TTL_SECONDS,
      maxLeaseTtlSeconds: () => o.maxLeaseTtlSeconds ?? DEFAULT_TTL_SECONDS,
      generatePasswordFromPolicy: async (name) => {
        const make = o.passwordPolicies?.get(name);
        if (!make) throw new NotFoundError('policy does not exist');
        return make();
      },
    },
  });
  let n = 0;
  const request = async (operation: Operation, path: string, data: Record<string, unknown> = {}) => {
    const target = backend.match(path);
    if (!target) throw new UnsupportedPathError();
    const req: BackendRequest = {
      id: `test-${n++}`,
      operation,
      path,
      data,
      mountPoint: 'test/',
      remoteAddress: '127.0.0.1',
      caller: { accessor: 'test-accessor', policies: ['root'], entityId: '', displayName: 'root' },
    };
    if (operation === 'update') req.operation = await writeOperation(target, req);
    return target.handle(req);
  };
  return {
    backend,
    storage,
    clock,
    request,
    read: (path, data) => request('read', path, data),
    write: (path, data) => request('update', path, data),
    list: (path) => request('list', path.endsWith('/') || path === '' ? path : `${path}/`),
    delete: (path) => request('delete', path),
  };
}
