import type { Clock, Logger } from '@ward/base';
import type { MemberRecord, Message } from './messages.js';
import { Suspicion, suspicionMinMs } from './suspicion.js';

/** What the table needs from the protocol around it. */
export interface TableHost {
  readonly selfName: string;
  readonly clock: Clock;
  readonly log: Logger;
  readonly suspicionMult: number;
  readonly suspicionMaxTimeoutMult: number;
  readonly probeIntervalMs: number;
  /** Queue a message for dissemination. */
  broadcast(msg: Message): void;
  /** Someone claims this node is suspect, dead or leaving: answer with a higher incarnation. */
  refute(incarnation: number): void;
  /** True while this node is leaving on purpose, so claims that it left are accepted. */
  isLeaving(): boolean;
  /** A member changed status (joined, failed, left, erased). */
  changed(): void;
}

interface Entry extends MemberRecord {
  changedAtMs: number;
  suspicion?: Suspicion;
}

/**
 * The member map and the SWIM state rules: incarnation numbers order claims about a
 * member, only the member itself may raise its incarnation, and suspicion becomes
 * death only when its timer runs out. Leave intents (force-leave) are ordered by a
 * Lamport time instead, as in Serf.
 */
export class MemberTable {
  readonly #members = new Map<string, Entry>();

  constructor(private readonly host: TableHost) {}

  get(name: string): MemberRecord | undefined {
    return this.#members.get(name);
  }

  all(): MemberRecord[] {
    return [...this.#members.values()].map(({ suspicion: _s, changedAtMs: _c, ...rest }) => ({ ...rest }));
  }

  /** Members that answer probes and receive gossip (alive or suspect), self excluded. */
  live(): MemberRecord[] {
    return this.all().filter((m) => m.name !== this.host.selfName && (m.state === 'alive' || m.state === 'suspect'));
  }

  /** Sets this node's own record (at start and when it refutes). */
  setSelf(rec: MemberRecord): void {
    const prev = this.#members.get(rec.name);
    this.#members.set(rec.name, { ...rec, changedAtMs: prev?.changedAtMs ?? this.host.clock.now() });
  }

  alive(msg: Extract<Message, { t: 'alive' }>): void {
    if (msg.node === this.host.selfName) {
      const self = this.#members.get(msg.node);
      // A stale copy of us with a higher incarnation (we restarted): outbid it.
      if (self && msg.inc > self.incarnation) this.host.refute(msg.inc);
      return;
    }
    const m = this.#members.get(msg.node);
    if (m && msg.inc <= m.incarnation) return;
    const wasLive = m !== undefined && (m.state === 'alive' || m.state === 'suspect');
    m?.suspicion?.stop();
    this.#members.set(msg.node, {
      name: msg.node,
      addr: msg.addr,
      port: msg.port,
      tags: msg.tags,
      incarnation: msg.inc,
      state: 'alive',
      leaving: false,
      statusLTime: m?.statusLTime ?? 0,
      changedAtMs: wasLive ? m.changedAtMs : this.host.clock.now(),
    });
    this.host.broadcast(msg);
    if (!wasLive) {
      this.host.log.info('gossip: member joined', { member: msg.node, addr: `${msg.addr}:${msg.port}` });
      this.host.changed();
    }
  }

  suspect(msg: Extract<Message, { t: 'suspect' }>): void {
    const m = this.#members.get(msg.node);
    if (!m || msg.inc < m.incarnation || (m.state !== 'alive' && m.state !== 'suspect')) return;
    if (msg.node === this.host.selfName) {
      this.host.refute(msg.inc);
      return;
    }
    if (m.state === 'suspect') {
      if (m.suspicion?.confirm(msg.from)) this.host.broadcast(msg);
      return;
    }
    m.state = 'suspect';
    m.incarnation = msg.inc;
    m.suspicion = this.#startSuspicion(m, msg.from);
    this.host.log.debug('gossip: member suspect', { member: m.name, from: msg.from });
    this.host.broadcast(msg);
  }

  #startSuspicion(m: Entry, from: string): Suspicion {
    const n = this.live().length + 1;
    const minMs = suspicionMinMs(this.host.suspicionMult, n, this.host.probeIntervalMs);
    const k = n - 2 < this.host.suspicionMult - 2 ? 0 : this.host.suspicionMult - 2;
    const inc = m.incarnation;
    return new Suspicion(this.host.clock, from, k, minMs, minMs * this.host.suspicionMaxTimeoutMult, () =>
      this.dead({ t: 'dead', node: m.name, inc, from: this.host.selfName }),
    );
  }

  dead(msg: Extract<Message, { t: 'dead' }>): void {
    const m = this.#members.get(msg.node);
    if (!m || msg.inc < m.incarnation || m.state === 'dead' || m.state === 'left') return;
    if (msg.node === this.host.selfName && !this.host.isLeaving()) {
      this.host.refute(msg.inc);
      return;
    }
    m.suspicion?.stop();
    m.suspicion = undefined;
    m.incarnation = msg.inc;
    // Serf: a member that announced (or was forced into) a leave has left; otherwise it failed.
    m.state = msg.from === msg.node || m.leaving ? 'left' : 'dead';
    m.changedAtMs = this.host.clock.now();
    this.host.log.info(m.state === 'left' ? 'gossip: member left' : 'gossip: member failed', { member: m.name });
    this.host.broadcast(msg);
    this.host.changed();
  }

  /** Applies a force-leave intent; returns false when it was stale or about an unknown member. */
  leaveIntent(msg: Extract<Message, { t: 'leave-intent' }>): boolean {
    const m = this.#members.get(msg.node);
    if (!m || msg.ltime <= m.statusLTime) return false;
    m.statusLTime = msg.ltime;
    this.host.broadcast(msg);
    if (msg.node === this.host.selfName) {
      if (!this.host.isLeaving()) this.host.refute(m.incarnation);
      return true;
    }
    if (m.state === 'dead') {
      m.state = 'left';
      m.changedAtMs = this.host.clock.now();
      this.host.log.info('gossip: member left (forced)', { member: m.name });
    } else if (m.state === 'alive' || m.state === 'suspect') {
      m.leaving = true;
    }
    if (msg.prune) this.erase(m.name);
    this.host.changed();
    return true;
  }

  /** Forgets a member entirely (reaping or prune). */
  erase(name: string): void {
    const m = this.#members.get(name);
    if (!m) return;
    m.suspicion?.stop();
    this.#members.delete(name);
    this.host.log.info('gossip: member reaped', { member: name });
    this.host.changed();
  }

  /** Erases failed and left members that have been so for longer than their timeouts. */
  reap(reconnectTimeoutMs: number, tombstoneTimeoutMs: number): void {
    const now = this.host.clock.now();
    for (const m of [...this.#members.values()]) {
      const age = now - m.changedAtMs;
      if ((m.state === 'dead' && age > reconnectTimeoutMs) || (m.state === 'left' && age > tombstoneTimeoutMs)) {
        this.erase(m.name);
      }
    }
  }

  /** Stops every suspicion timer (shutdown). */
  stopTimers(): void {
    for (const m of this.#members.values()) m.suspicion?.stop();
  }
}
