import type { PolicyListStub } from '../api-types.js';
import { InternalError, InvalidRequestError, PermissionDeniedError } from '../errors.js';
import { ACL_DISABLED, type Acl } from './acl.js';
import type { Rules } from './policy.js';
import type { AclStore, PolicyRecord } from './store.js';

/** Every ACL API operation, in a form that can be forwarded over RPC. */
export type AclOp =
  | { op: 'bootstrap' }
  | { op: 'policy-list' }
  | { op: 'policy-read'; name: string }
  | { op: 'policy-upsert'; name: string; body: Record<string, unknown> }
  | { op: 'policy-delete'; name: string }
  | { op: 'token-list' }
  | { op: 'token-self' }
  | { op: 'token-read'; accessor: string }
  | { op: 'token-upsert'; accessor?: string; body: Record<string, unknown> }
  | { op: 'token-delete'; accessor: string };

const WRITES = new Set<AclOp['op']>(['bootstrap', 'policy-upsert', 'policy-delete', 'token-upsert', 'token-delete']);

/** Where ACL operations run, as seen from this agent. */
export interface AclCluster {
  readonly isEnabled: boolean;
  /** This agent holds the replicated ACL state (servers do, clients do not). */
  readonly isServer: boolean;
  /** RPC address of the leader, 'self', or undefined while there is none. */
  leader(): string | 'self' | undefined;
  /** Calls a method on the server at `address` (the leader, for a write). */
  callAt<T>(address: string, method: string, args: Record<string, unknown>, token: string | undefined): Promise<T>;
  /** Calls a method on some server (a client forwards everything ACL this way). */
  callServer<T>(method: string, args: Record<string, unknown>, token: string | undefined): Promise<T>;
  /** On the leader: runs `write` and resolves once a majority of servers holds it (Raft commit). */
  commit<T>(write: () => Promise<T>): Promise<T>;
}

/**
 * ACL resolution and the ACL API. Reads run on any server from its replica; writes run
 * on the leader and are acknowledged once committed; a client forwards everything to a
 * server.
 */
export class AclService {
  constructor(
    private readonly store: AclStore,
    private readonly cluster: AclCluster,
  ) {}

  /** The ACL for a request's token; throws 403 `ACL token not found` for an unknown secret. */
  async resolve(secret: string | undefined): Promise<Acl> {
    if (!this.cluster.isEnabled) return ACL_DISABLED;
    if (this.cluster.isServer) return this.store.resolve(secret);
    const r = await this.cluster.callServer<{ isManagement: boolean; rules: Rules }>('ACL.ResolveToken', {}, secret);
    return { isEnforced: true, ...r };
  }

  async execute(token: string | undefined, op: AclOp): Promise<unknown> {
    if (!this.cluster.isEnabled) throw new InvalidRequestError('ACL support disabled');
    const isWrite = WRITES.has(op.op);
    if (!this.cluster.isServer) return this.cluster.callServer('ACL.Op', { ...op }, token);
    if (!isWrite) return this.#run(token, op);
    const leader = this.cluster.leader();
    if (leader === undefined) throw new InternalError('No cluster leader');
    if (leader !== 'self') return this.cluster.callAt(leader, 'ACL.Op', { ...op }, token);
    return this.cluster.commit(() => this.#run(token, op));
  }

  async #run(token: string | undefined, op: AclOp): Promise<unknown> {
    const s = this.store;
    if (op.op === 'bootstrap') return s.bootstrap();
    if (op.op === 'token-self') return s.tokenBySecret(token);
    if (!s.resolve(token).isManagement) throw new PermissionDeniedError('Permission denied');
    switch (op.op) {
      case 'policy-list':
        return s.policies().map(
          ({ Name, Description, CreateIndex, ModifyIndex }): PolicyListStub => ({
            Name,
            Description,
            CreateIndex,
            ModifyIndex,
          }),
        );
      case 'policy-read':
        return publicPolicy(s.policy(op.name));
      case 'policy-upsert':
        return s.upsertPolicy(op.name, op.body);
      case 'policy-delete':
        return s.deletePolicy(op.name);
      case 'token-list':
        return s.tokens().map(({ SecretID: _secret, ...stub }) => stub);
      case 'token-read':
        return s.token(op.accessor);
      case 'token-upsert':
        return s.upsertToken(op.body, op.accessor);
      case 'token-delete':
        return s.deleteToken(op.accessor);
    }
  }
}

function publicPolicy({ parsed: _parsed, ...rest }: PolicyRecord): Omit<PolicyRecord, 'parsed'> {
  return rest;
}
