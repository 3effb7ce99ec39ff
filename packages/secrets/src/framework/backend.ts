import type { KeyObject } from 'node:crypto';
import type { Clock, Logger, Random } from '@ward/base';
import {
  InternalError,
  InvalidRequestError,
  NotFoundError,
  UnsupportedOperationError,
  UnsupportedPathError,
} from '../logical/errors.js';
import type { BackendRequest } from '../logical/request.js';
import type { LockoutControl, LogicalResponse, LoginRenewal, LoginRenewRequest } from '../logical/response.js';
import type { Storage } from '../logical/storage.js';
import { buildContext, withParameterWarnings } from './handler-input.js';
import type { PathDefinition, PathOperation } from './path.js';
import { matchFirst } from './pattern.js';
import type { SecretType, StoredSecret } from './secrets.js';
import type { SignatureScheme } from './signatures.js';

/** A managed key (`sys/managed-keys`) as an engine uses it: the private key stays in the HSM or key service. */
export interface ManagedKeySigner {
  /** The key's stable id (its `UUID`), which engines store: a name may be deleted and reused. */
  readonly id: string;
  readonly name: string;
  /**
   * Signs `digest`, the hash of a message under `hash` (`sha2-256`, … as `test/sign` spells them):
   * RSA as PKCS#1 v1.5 or, with `usePss`, PSS (salt as long as the digest); EC as DER ECDSA.
   * `InvalidRequestError` when the key cannot do that; `UpstreamError` when the HSM or service fails.
   */
  sign(digest: Uint8Array, options: SignatureScheme): Promise<Uint8Array>;
  /** The public half, for verifying locally. */
  publicKey(): Promise<KeyObject>;
}

/** Names a managed key by `name` or by its `id` (UUID). */
export type ManagedKeyRef = { name: string } | { id: string };

/** The narrow view of the core a backend gets: never the core itself. */
export interface SystemView {
  /** Effective default lease TTL of the backend's mount, in seconds. */
  defaultLeaseTtlSeconds(): number;
  /** Effective maximum lease TTL of the backend's mount, in seconds. */
  maxLeaseTtlSeconds(): number;
  /**
   * A password from the mount's namespace's password policy `name` (`sys/policies/password`);
   * `NotFoundError` when there is no such policy.
   */
  generatePasswordFromPolicy(name: string): Promise<string>;
  /**
   * A managed key of the mount's namespace, if the mount may use it: the key has `any_mount`,
   * or the mount lists its name in `allowed_managed_keys` (read at each call, so a tune applies
   * at once). `InvalidRequestError` when there is no such key or the mount may not use it.
   * Absent where no managed keys can exist (backends built by tests without a server).
   */
  managedKey?(ref: ManagedKeyRef): Promise<ManagedKeySigner>;
}

/** Everything a backend factory receives from the core when a mount is set up. */
export interface BackendContext {
  /** The mount's own storage, already confined to its prefix and behind the barrier. */
  storage: Storage;
  logger: Logger;
  clock: Clock;
  random: Random;
  system: SystemView;
  /** The mount's `options` (e.g. KV's `version`). */
  options: Record<string, string>;
}

/** Path globs relative to the mount: exact, or prefix when ending in `*`. */
export interface SpecialPaths {
  /** Need no token (login endpoints). */
  unauthenticated?: string[];
  /** Root-protected: need `sudo` besides the operation's capability. */
  root?: string[];
}

/**
 * Work a backend needs done on a schedule (sweeping expired records, rotating a password).
 * The core runs it per mount while the server is unsealed (and, with HA, only on the
 * active server); a run never overlaps the previous one of the same task.
 */
export interface PeriodicTask {
  /** Names the task in logs. */
  name: string;
  /** Time from the end of one run to the start of the next (at most 2^31-1). */
  intervalMs: number;
  /** One run; a throw is logged and the task keeps its schedule. */
  run(): Promise<void>;
}

/** A mounted engine or auth method, as the router sees it. */
export interface Backend {
  readonly type: string;
  readonly help: string;
  readonly paths: readonly PathDefinition[];
  readonly specialPaths: SpecialPaths;
  /**
   * The declared path serving `path` (relative to the mount), `undefined` when none does.
   * The core matches once per request and uses the result for the existence check and the call.
   */
  match(path: string): PathMatch | undefined;
  /** Matches and answers a request whose path is relative to the mount (`UnsupportedPathError` when nothing serves it). */
  handle(req: BackendRequest): Promise<LogicalResponse | undefined>;
  /** `undefined` when the matched path has no existence check (the write is then an update). */
  exists(req: BackendRequest): Promise<boolean | undefined>;
  /** Called when the mount is removed or the server seals (after its periodic tasks stopped). */
  cleanup?(): Promise<void>;
  /**
   * Called before a tune changes the mount's version (`options`: all of them, as they will be);
   * throws to refuse the change. The core then starts a new backend with those options.
   */
  checkOptionsChange?(options: Record<string, string>): Promise<void>;
  /** Started by the core when the mount starts, stopped on unmount and seal. */
  readonly periodic: readonly PeriodicTask[];
  /**
   * Called by the core when a token is revoked or expires, for a backend that keeps data per token
   * (the cubbyhole): it drops that token's data. `accessor` is the token's.
   */
  tokenRevoked?(accessor: string): Promise<void>;
  /** The secret type named `type`, `undefined` when this backend declares none by that name. */
  secretType(type: string): SecretType | undefined;
  /** Ends a secret this backend leased; throws when its type is unknown or its `revoke` fails. */
  revokeSecret(secret: StoredSecret): Promise<void>;
  /** Tells the secret's type that its lease is stored (its `leased`, when it has one). */
  secretLeased(secret: StoredSecret): Promise<void>;
  /** Extends a leased secret: the TTL its type's `renew` granted (`undefined`: the increment as asked). */
  renewSecret(secret: StoredSecret, incrementSeconds: number): Promise<{ ttlSeconds: number } | undefined>;
  /**
   * An auth method whose tokens renew under its current settings: the core asks the method that
   * issued a token (found by the token's login path) at each renewal, so a changed TTL applies at
   * the next renewal. Throws to refuse (e.g. policies changed); `null` leaves the token as it is
   * (the user is gone). Absent: the token keeps the facts of its creation.
   */
  readonly renewLogin?: (req: LoginRenewRequest) => Promise<LoginRenewal | null>;
  /** An auth method that locks out users after repeated failed logins (`sys/locked-users`). */
  readonly lockout?: LockoutControl;
}

/** One request path matched against a backend's declarations. */
export interface PathMatch {
  /**
   * The path as the backend acts on it: the one matched, with the captures declared
   * `caseInsensitive` lower-cased. The core judges, audits and serves the request under it.
   */
  readonly path: string;
  /** The path declares `forwardToActive`: a performance standby hands even its reads to the active server. */
  readonly forwardToActive: boolean;
  /** Whether a write's target exists (`create` vs `update`); `undefined` without an existence check. */
  exists(req: BackendRequest): Promise<boolean | undefined>;
  /** Validates the input and calls the operation's handler. */
  handle(req: BackendRequest): Promise<LogicalResponse | undefined>;
}

export interface BackendSpec {
  type: string;
  /** The mount's storage, handed to every handler. */
  storage: Storage;
  help: string;
  paths: PathDefinition[];
  specialPaths?: SpecialPaths;
  cleanup?: () => Promise<void>;
  checkOptionsChange?: (options: Record<string, string>) => Promise<void>;
  periodic?: PeriodicTask[];
  /** The kinds of secret the handlers hand out under a lease (`{ secret: { type, … } }`). */
  secrets?: SecretType[];
  tokenRevoked?: (accessor: string) => Promise<void>;
  /** The auth method's current limits for a token it issued, at that token's renewal (`Backend.renewLogin`). */
  renewLogin?: (req: LoginRenewRequest) => Promise<LoginRenewal | null>;
  /** The auth method's lockout table (`Backend.lockout`). */
  lockout?: LockoutControl;
}

/** Builds a `Backend` that routes among `paths`, validates input and calls handlers. */
export function createBackend(spec: BackendSpec): Backend {
  const matchDef = (path: string) => matchFirst(spec.paths, path);
  const match = (path: string): PathMatch | undefined => {
    // Established list patterns end in `/?`: without its slash a list-only path is still that path,
    // and a verb it does not offer answers 405 (from resolveOperation), not 404.
    const listOnly = (p: string) => {
      const found = p.endsWith('/') ? undefined : matchDef(`${p}/`);
      return found && isListOnly(found.def) ? found : undefined;
    };
    const found = matchDef(path) ?? listOnly(path);
    return found && matchedPath(found.def, found.captured, spec.storage, foldCaptures(found.def, found.captured, path));
  };
  const find = (path: string) => {
    const found = match(path);
    if (!found) throw new UnsupportedPathError();
    return found;
  };

  const secretTypes = new Map((spec.secrets ?? []).map((t) => [t.type, t]));
  const requireType = (type: string) => {
    const found = secretTypes.get(type);
    if (!found) throw new InternalError(`${spec.type}: no secret type "${type}"`);
    return found;
  };

  return {
    type: spec.type,
    help: spec.help,
    paths: spec.paths,
    specialPaths: spec.specialPaths ?? {},
    cleanup: spec.cleanup,
    checkOptionsChange: spec.checkOptionsChange,
    periodic: spec.periodic ?? [],
    tokenRevoked: spec.tokenRevoked,
    renewLogin: spec.renewLogin,
    lockout: spec.lockout,
    secretType: (type) => secretTypes.get(type),
    revokeSecret: ({ leaseId, type, internal }) =>
      requireType(type).revoke({ storage: spec.storage, leaseId, internal }),
    async secretLeased({ leaseId, type, internal }) {
      await requireType(type).leased?.({ storage: spec.storage, leaseId, internal });
    },
    async renewSecret({ leaseId, type, internal }, incrementSeconds) {
      const renew = requireType(type).renew;
      if (!renew) throw new InvalidRequestError('lease is not renewable');
      return renew({ storage: spec.storage, leaseId, internal, incrementSeconds });
    },

    match,
    handle: (req) => find(req.path).handle(req),
    exists: (req) => find(req.path).exists(req),
  };
}

/**
 * `path` with the captures of `def` declared case-insensitive lower-cased: `path` itself when
 * there are none. The handler still gets the captures as sent (it finds the object by any
 * spelling, and may keep the spelling a name was created with).
 */
function foldCaptures(def: PathDefinition, captured: Record<string, string>, path: string): string {
  if (def.foldedCaptures.length === 0) return path;
  const values = { ...captured };
  for (const name of def.foldedCaptures) values[name] = (values[name] ?? '').toLowerCase();
  const folded = def.pattern.build(values);
  // A list-only path matched with the slash it was sent without.
  return folded.length === path.length + 1 && !path.endsWith('/') ? folded.slice(0, -1) : folded;
}

function matchedPath(def: PathDefinition, captured: Record<string, string>, storage: Storage, path: string): PathMatch {
  return {
    path,
    forwardToActive: def.spec.forwardToActive === true,
    async exists(req) {
      if (!def.spec.existenceCheck) return undefined;
      // Only asks whether the path's target exists: the body is parsed and checked by the write itself.
      return def.spec.existenceCheck({ req, storage, data: captured });
    },
    async handle(req) {
      const operation = resolveOperation(def, req.operation);
      const response = await operation.handler(buildContext(def, req, storage, captured));
      if (req.operation === 'list' && hasNoKeys(response)) throw new NotFoundError('');
      return withParameterWarnings(response, def, req.data, captured);
    },
  };
}

/**
 * The one place an empty LIST becomes a 404, as established servers answer every list
 * (a list with no `keys`, or none at all, is "nothing here", not `{"keys":[]}`).
 */
function hasNoKeys(response: LogicalResponse | undefined): boolean {
  if (response?.raw) return false;
  const keys = response?.data?.keys;
  return !Array.isArray(keys) || keys.length === 0;
}

function isListOnly(def: PathDefinition): boolean {
  const operations = Object.keys(def.spec.operations);
  return operations.length === 1 && operations[0] === 'list';
}

/** A `create` falls back to the `update` handler and back, as most paths write the same way. */
function resolveOperation(def: PathDefinition, operation: BackendRequest['operation']) {
  const ops = def.spec.operations;
  const chosen =
    operation === 'create'
      ? (ops.create ?? ops.update)
      : operation === 'update'
        ? (ops.update ?? ops.create)
        : operation === 'help'
          ? undefined
          : ops[operation as PathOperation];
  if (!chosen) throw new UnsupportedOperationError();
  return chosen;
}
