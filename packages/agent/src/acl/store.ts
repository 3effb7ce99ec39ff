import { type Clock, type Random, randomUuid } from '@ward/base';
import { InvalidRequestError, NotFoundError, PermissionDeniedError } from '../errors.js';
import type { ClusterMeta, LogPosition, RaftFsm } from '../raft/messages.js';
import type { Acl } from './acl.js';
import { combineRules, parseRules, type Rules } from './policy.js';

export interface PolicyRecord {
  Name: string;
  Description: string;
  Rules: string;
  CreateIndex: number;
  ModifyIndex: number;
  /** Parsed once when written, so checks never re-parse HCL. */
  parsed: Rules;
}

export interface TokenRecord {
  AccessorID: string;
  SecretID: string;
  Name: string;
  Type: 'client' | 'management';
  Policies: string[];
  Global: boolean;
  CreateTime: string;
  CreateIndex: number;
  ModifyIndex: number;
}

/**
 * Everything ACL, as replicated between servers and kept on disk. `index` grows by one
 * per write (the Raft log index); `term` is the Raft term of the last write.
 */
export interface AclSnapshot {
  index: number;
  term: number;
  bootstrapIndex: number;
  policies: PolicyRecord[];
  tokens: TokenRecord[];
  /** Which cluster this state belongs to, and its voters; absent until a leader claims it. */
  cluster?: ClusterMeta;
}

const NAME = /^[a-zA-Z0-9-]{1,128}$/;

/** Where the state survives a restart (`<data_dir>/acl/state.json`); absent in dev mode. */
export interface AclPersistence {
  load(): AclSnapshot | undefined;
  /** Durable before it returns. */
  save(s: AclSnapshot): void;
}

export interface AclStoreOptions {
  clock: Clock;
  random: Random;
  /** The Raft term a write is made in. */
  currentTerm(): number;
  persistence?: AclPersistence;
}

/**
 * Policies and tokens: the Raft state machine of the servers. Writes happen on the
 * leader only (the agent forwards them there, through `RaftNode.apply`); followers
 * take the leader's state when it is newer (`restore`). Every change is saved before
 * the write is acknowledged.
 */
export class AclStore implements RaftFsm {
  #s: AclSnapshot;

  constructor(private readonly o: AclStoreOptions) {
    this.#s = o.persistence?.load() ?? { index: 0, term: 0, bootstrapIndex: 0, policies: [], tokens: [] };
  }

  position(): LogPosition {
    return { index: this.#s.index, term: this.#s.term };
  }

  snapshot(): AclSnapshot {
    return structuredClone(this.#s);
  }

  restore(state: unknown): void {
    this.#s = structuredClone(state as AclSnapshot);
    this.#save();
  }

  noop(term: number): void {
    this.#s.index++;
    this.#s.term = term;
    this.#save();
  }

  cluster(): ClusterMeta | undefined {
    return this.#s.cluster ? structuredClone(this.#s.cluster) : undefined;
  }

  setCluster(meta: ClusterMeta, term: number): void {
    this.#s.index++;
    this.#s.term = term;
    this.#s.cluster = structuredClone(meta);
    this.#save();
  }

  isBlank(): boolean {
    return this.#s.bootstrapIndex === 0 && this.#s.policies.length === 0 && this.#s.tokens.length === 0;
  }

  /** The ACL of a secret; no secret means the anonymous token. Unknown → 403 `ACL token not found`. */
  resolve(secret: string | undefined): Acl {
    if (!secret) {
      const anon = this.#s.policies.find((p) => p.Name === 'anonymous');
      return { isEnforced: true, isManagement: false, rules: anon?.parsed ?? {} };
    }
    const token = this.#s.tokens.find((t) => t.SecretID === secret);
    if (!token) throw new PermissionDeniedError('ACL token not found');
    if (token.Type === 'management') return { isEnforced: true, isManagement: true, rules: {} };
    const parsed = token.Policies.map((n) => this.#s.policies.find((p) => p.Name === n)?.parsed ?? {});
    return { isEnforced: true, isManagement: false, rules: combineRules(parsed) };
  }

  tokenBySecret(secret: string | undefined): TokenRecord {
    const t = this.#s.tokens.find((x) => x.SecretID === secret);
    if (!secret || !t) throw new PermissionDeniedError('ACL token not found');
    return structuredClone(t);
  }

  bootstrap(): TokenRecord {
    if (this.#s.bootstrapIndex > 0) {
      throw new InvalidRequestError(`ACL bootstrap already done (reset index: ${this.#s.bootstrapIndex})`);
    }
    const token = this.#newToken({ Name: 'Bootstrap Token', Type: 'management', Policies: [], Global: true });
    this.#s.bootstrapIndex = token.CreateIndex;
    this.#save();
    return token;
  }

  async upsertPolicy(name: string, body: { Description?: unknown; Rules?: unknown }): Promise<void> {
    if (!NAME.test(name)) throw new InvalidRequestError(`invalid policy name ${JSON.stringify(name)}`);
    if (typeof body.Rules !== 'string') throw new InvalidRequestError('policy Rules must be a string');
    const parsed = await parseRules(body.Rules);
    const index = this.#bump();
    const prev = this.#s.policies.find((p) => p.Name === name);
    const rec: PolicyRecord = {
      Name: name,
      Description: typeof body.Description === 'string' ? body.Description : '',
      Rules: body.Rules,
      CreateIndex: prev?.CreateIndex ?? index,
      ModifyIndex: index,
      parsed,
    };
    this.#s.policies = [...this.#s.policies.filter((p) => p.Name !== name), rec];
    this.#save();
  }

  deletePolicy(name: string): void {
    this.policy(name);
    this.#bump();
    this.#s.policies = this.#s.policies.filter((p) => p.Name !== name);
    this.#save();
  }

  policy(name: string): PolicyRecord {
    const p = this.#s.policies.find((x) => x.Name === name);
    if (!p) throw new NotFoundError('ACL policy not found');
    return structuredClone(p);
  }

  policies(): PolicyRecord[] {
    return structuredClone(this.#s.policies).sort((a, b) => a.Name.localeCompare(b.Name));
  }

  upsertToken(body: Record<string, unknown>, accessor?: string): TokenRecord {
    const type = (body.Type ?? 'client') as TokenRecord['Type'];
    if (type !== 'client' && type !== 'management')
      throw new InvalidRequestError('token type must be client or management');
    const policies = body.Policies ?? [];
    if (!Array.isArray(policies) || policies.some((p) => typeof p !== 'string')) {
      throw new InvalidRequestError('Policies must be a list of policy names');
    }
    if (type === 'client' && policies.length === 0) throw new InvalidRequestError('client token missing policies');
    if (type === 'management' && policies.length > 0)
      throw new InvalidRequestError('management token cannot be associated with policies');
    const fields = {
      Name: String(body.Name ?? ''),
      Type: type,
      Policies: policies as string[],
      Global: body.Global === true,
    };
    if (!accessor) return this.#newToken(fields);
    const prev = this.token(accessor);
    const updated = { ...prev, ...fields, ModifyIndex: this.#bump() };
    this.#s.tokens = this.#s.tokens.map((t) => (t.AccessorID === accessor ? updated : t));
    this.#save();
    return structuredClone(updated);
  }

  deleteToken(accessor: string): void {
    this.token(accessor);
    this.#bump();
    this.#s.tokens = this.#s.tokens.filter((t) => t.AccessorID !== accessor);
    this.#save();
  }

  token(accessor: string): TokenRecord {
    const t = this.#s.tokens.find((x) => x.AccessorID === accessor);
    if (!t) throw new NotFoundError('ACL token not found');
    return structuredClone(t);
  }

  tokens(): TokenRecord[] {
    return structuredClone(this.#s.tokens);
  }

  #newToken(fields: Pick<TokenRecord, 'Name' | 'Type' | 'Policies' | 'Global'>): TokenRecord {
    const index = this.#bump();
    const token: TokenRecord = {
      AccessorID: randomUuid(this.o.random),
      SecretID: randomUuid(this.o.random),
      ...fields,
      CreateTime: new Date(this.o.clock.now()).toISOString(),
      CreateIndex: index,
      ModifyIndex: index,
    };
    this.#s.tokens = [...this.#s.tokens, token];
    this.#save();
    return structuredClone(token);
  }

  #bump(): number {
    this.#s.index++;
    this.#s.term = this.o.currentTerm();
    return this.#s.index;
  }

  #save(): void {
    this.o.persistence?.save(this.#s);
  }
}
