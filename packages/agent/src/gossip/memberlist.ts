/** Gossip membership (memberlist's protocol): probes, suspicion, push-pull, encryption, real and in-memory transports. @module */
import type { Cancel, Clock, Logger, Random } from '@ward/base';
import { BroadcastQueue } from './broadcasts.js';
import type { GossipConfig } from './config.js';
import { MemberTable } from './member-table.js';
import { decode, encode, type MemberRecord, type Message, type StreamReply, type StreamRequest } from './messages.js';
import { Prober } from './prober.js';
import { pickRandom } from './random-pick.js';
import { type Address, addressKey, type Transport } from './transport.js';

export interface MemberlistOptions {
  name: string;
  tags: Record<string, string>;
  transport: Transport;
  clock: Clock;
  random: Random;
  log: Logger;
  config: GossipConfig;
  /** Called after any member changes status. */
  onChange?: () => void;
}

/** Datagram budget for piggy-backed gossip, as memberlist's UDPBufferSize. */
const PACKET_BUDGET_BYTES = 1400;

/**
 * SWIM membership with Lifeguard suspicion and Serf-style leave intents: the agent's
 * view of the server pool. Start it, `join` some peers, read `members()`.
 */
export class Memberlist {
  readonly table: MemberTable;
  readonly #queue: BroadcastQueue;
  readonly #prober: Prober;
  readonly #timers: Cancel[] = [];
  #incarnation = 0;
  #ltime = 0;
  #isLeaving = false;
  #isStopped = false;

  constructor(private readonly o: MemberlistOptions) {
    this.#queue = new BroadcastQueue(o.config.retransmitMult);
    this.table = new MemberTable({
      selfName: o.name,
      clock: o.clock,
      log: o.log,
      suspicionMult: o.config.suspicionMult,
      suspicionMaxTimeoutMult: o.config.suspicionMaxTimeoutMult,
      probeIntervalMs: o.config.probeIntervalMs,
      broadcast: (msg) => this.#queue.push(msg),
      refute: (inc) => this.#refute(inc),
      isLeaving: () => this.#isLeaving,
      // Serf's member clock: every membership change seen moves it on (serf.member_time).
      changed: () => {
        this.#ltime++;
        o.onChange?.();
      },
    });
    this.#prober = new Prober({
      selfName: o.name,
      transport: o.transport,
      clock: o.clock,
      random: o.random,
      config: o.config,
      table: this.table,
      send: (to, msgs) => this.#sendPacket(to, msgs),
      streamPing: (to, node) => this.#stream(to, { t: 'ping', node }, o.config.probeTimeoutMs).then(() => undefined),
    });
    this.table.setSelf(this.#selfRecord());
    o.transport.onPacket((data, from) => this.#onPacket(data, from));
    o.transport.onRequest((data) => this.#onStream(data));
  }

  get name(): string {
    return this.o.name;
  }

  get local(): Address {
    return this.o.transport.local;
  }

  /** Lifeguard's local health score (0 is healthy). */
  get healthScore(): number {
    return this.#prober.healthScore;
  }

  /** Serf's member time: a Lamport clock moved by every membership change and leave intent. */
  get lamportTime(): number {
    return this.#ltime;
  }

  /** Messages waiting to be piggy-backed. */
  get queuedBroadcasts(): number {
    return this.#queue.length;
  }

  /** Every tracked member, self included, alive or not (until reaped). */
  members(): MemberRecord[] {
    return this.table.all();
  }

  self(): MemberRecord {
    return this.#selfRecord();
  }

  start(): void {
    const c = this.o.config;
    this.#every(c.probeIntervalMs, () => this.#prober.probeNext());
    this.#every(c.gossipIntervalMs, () => this.#gossip());
    this.#every(c.pushPullIntervalMs, () => this.#pushPullRandom(this.table.live()));
    this.#every(c.reconnectIntervalMs, () => this.#pushPullRandom(this.table.all().filter((m) => m.state === 'dead')));
    this.#every(c.reapIntervalMs, () => this.table.reap(c.reconnectTimeoutMs, c.tombstoneTimeoutMs));
  }

  #every(ms: number, fn: () => void): void {
    const tick = () => {
      if (this.#isStopped) return;
      fn();
      this.#timers.push(this.o.clock.setTimeout(tick, ms));
    };
    this.#timers.push(this.o.clock.setTimeout(tick, ms));
  }

  /** Full state exchange with each address; counts successes (the same address twice counts twice). */
  async join(addresses: Address[]): Promise<{ numJoined: number; errors: string[] }> {
    const results = await Promise.allSettled(addresses.map((a) => this.pushPull(a, true)));
    const errors: string[] = [];
    results.forEach((r, i) => {
      if (r.status === 'rejected')
        errors.push(`failed to join ${addressKey(addresses[i] as Address)}: ${errText(r.reason)}`);
    });
    return { numJoined: results.length - errors.length, errors };
  }

  /** One push-pull: send our full state, merge the peer's. */
  async pushPull(to: Address, join = false): Promise<void> {
    const reply = await this.#stream(
      to,
      { t: 'push-pull', join, ltime: this.#ltime, members: this.table.all() },
      this.o.config.tcpTimeoutMs,
    );
    if (reply.t === 'push-pull') this.#merge(reply.ltime, reply.members);
  }

  /** Serf's force-leave: a failed member becomes left (an alive one only `leaving`); `prune` erases it. */
  forceLeave(node: string, prune: boolean): void {
    this.#ltime++;
    const msg: Message = { t: 'leave-intent', node, ltime: this.#ltime, prune };
    this.table.leaveIntent(msg);
    this.o.log.info('gossip: force leave', { member: node, prune });
    this.#gossip();
  }

  /** Graceful leave: tell the live members we left, by datagram and by push-pull to a few. */
  async leave(): Promise<void> {
    if (this.#isLeaving) return;
    this.#isLeaving = true;
    const self = this.#selfRecord();
    const msg: Message = { t: 'dead', node: self.name, inc: this.#incarnation, from: self.name };
    this.table.dead(msg);
    const live = this.table.live();
    for (const m of live) this.#sendPacket(m, [msg]);
    const timeoutMs = Math.min(this.o.config.tcpTimeoutMs, 1000);
    await Promise.allSettled(
      pickRandom(this.o.random, live, 3).map((m) =>
        this.#stream(m, { t: 'push-pull', join: false, ltime: this.#ltime, members: this.table.all() }, timeoutMs),
      ),
    );
    this.o.log.info('gossip: left the pool');
  }

  async shutdown(): Promise<void> {
    this.#isStopped = true;
    for (const cancel of this.#timers) cancel();
    this.#prober.stop();
    this.table.stopTimers();
    await this.o.transport.close();
  }

  #selfRecord(): MemberRecord {
    const t = this.o.transport.local;
    return {
      name: this.o.name,
      addr: t.addr,
      port: t.port,
      tags: this.o.tags,
      incarnation: this.#incarnation,
      state: this.#isLeaving ? 'left' : 'alive',
      leaving: false,
      statusLTime: this.table?.get(this.o.name)?.statusLTime ?? 0,
    };
  }

  #refute(inc: number): void {
    this.#incarnation = Math.max(this.#incarnation, inc) + 1;
    const self = this.#selfRecord();
    this.table.setSelf(self);
    this.o.log.debug('gossip: refuting a claim about this node', { incarnation: this.#incarnation });
    this.#queue.push({
      t: 'alive',
      node: self.name,
      addr: self.addr,
      port: self.port,
      tags: self.tags,
      inc: self.incarnation,
    });
  }

  #gossip(): void {
    if (this.#queue.length === 0) return;
    for (const m of pickRandom(this.o.random, this.table.live(), this.o.config.gossipNodes)) this.#sendPacket(m, []);
  }

  #sendPacket(to: Address, msgs: Message[]): void {
    const extra = this.#queue.take(PACKET_BUDGET_BYTES, this.table.live().length + 1);
    this.o.transport.sendPacket(to, encode([...msgs, ...extra]));
  }

  #pushPullRandom(candidates: MemberRecord[]): void {
    const [peer] = pickRandom(this.o.random, candidates, 1);
    if (!peer) return;
    this.pushPull(peer).catch((err: unknown) =>
      this.o.log.debug('gossip: push-pull failed', { member: peer.name, error: errText(err) }),
    );
  }

  async #stream(to: Address, req: StreamRequest, timeoutMs: number): Promise<StreamReply> {
    const data = await this.o.transport.request(to, encode(req), timeoutMs);
    const reply = decode<StreamReply>(data);
    if (!reply) throw new Error('malformed reply');
    return reply;
  }

  #onPacket(data: Uint8Array, from: Address): void {
    if (this.#isStopped) return;
    const msgs = decode<Message[]>(data);
    if (!Array.isArray(msgs)) return;
    for (const msg of msgs) this.#handle(msg, from);
  }

  #handle(msg: Message, from: Address): void {
    switch (msg.t) {
      case 'ping':
        // A ping for another name means it reached a restarted node on a reused port: stay silent.
        if (msg.node === this.o.name) this.#sendPacket(from, [{ t: 'ack', seq: msg.seq }]);
        return;
      case 'ping-req':
        this.#prober.relay(msg, from);
        return;
      case 'ack':
      case 'nack':
        this.#prober.onAck(msg.seq, msg.t === 'ack');
        return;
      case 'alive':
        this.table.alive(msg);
        return;
      case 'suspect':
        this.table.suspect(msg);
        return;
      case 'dead':
        this.table.dead(msg);
        return;
      case 'leave-intent':
        this.#ltime = Math.max(this.#ltime, msg.ltime);
        this.table.leaveIntent(msg);
        return;
    }
  }

  async #onStream(data: Uint8Array): Promise<Uint8Array> {
    const req = decode<StreamRequest>(data);
    if (!req || this.#isStopped) throw new Error('bad request');
    if (req.t === 'ping') {
      if (req.node !== this.o.name) throw new Error('ping for another node');
      return encode({ t: 'ack' } satisfies StreamReply);
    }
    if (req.join) this.o.log.debug('gossip: join request received');
    const reply: StreamReply = {
      t: 'push-pull',
      ltime: this.#ltime,
      members: this.table.all(),
    };
    this.#merge(req.ltime, req.members);
    return encode(reply);
  }

  /** Merges a peer's full state; dead claims arrive as suspicions so the member can refute. */
  #merge(ltime: number, members: MemberRecord[]): void {
    this.#ltime = Math.max(this.#ltime, ltime);
    for (const r of members) {
      const known = this.table.get(r.name);
      if (r.state === 'alive' || (r.state === 'suspect' && !known)) {
        this.table.alive({ t: 'alive', node: r.name, addr: r.addr, port: r.port, tags: r.tags, inc: r.incarnation });
      } else if (r.state === 'suspect' || r.state === 'dead') {
        this.table.suspect({ t: 'suspect', node: r.name, inc: r.incarnation, from: this.o.name });
      } else if (r.state === 'left') {
        this.table.dead({ t: 'dead', node: r.name, inc: r.incarnation, from: r.name });
      }
      if (r.statusLTime > (this.table.get(r.name)?.statusLTime ?? 0)) {
        this.table.leaveIntent({ t: 'leave-intent', node: r.name, ltime: r.statusLTime, prune: false });
      }
    }
  }
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
