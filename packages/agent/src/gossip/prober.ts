import type { Cancel, Clock, Random } from '@ward/base';
import type { GossipConfig } from './config.js';
import type { MemberTable } from './member-table.js';
import type { MemberRecord, Message } from './messages.js';
import { pickRandom } from './random-pick.js';
import type { Address, Transport } from './transport.js';

export interface ProberOptions {
  selfName: string;
  transport: Transport;
  clock: Clock;
  random: Random;
  config: GossipConfig;
  table: MemberTable;
  send(to: Address, msgs: Message[]): void;
  /** TCP ping, tried alongside indirect probes so a lossy UDP path alone cannot fail a node. */
  streamPing(to: Address, node: string): Promise<void>;
}

/** Lifeguard caps how far a struggling node stretches its probe timeout. */
const AWARENESS_MAX_MULTIPLIER = 8;

/**
 * SWIM failure detection: each probe interval ping the next member round-robin; without
 * an ack, ask `indirectChecks` others to ping it and try TCP; still nothing by the end of
 * the interval → suspect it.
 */
export class Prober {
  readonly #waiting = new Map<number, (ok: boolean) => void>();
  readonly #relays = new Map<number, { seq: number; to: Address }>();
  #order: string[] = [];
  #seq = 0;
  #health = 0;
  #isStopped = false;
  readonly #timers = new Set<Cancel>();

  constructor(private readonly o: ProberOptions) {}

  get healthScore(): number {
    return this.#health;
  }

  probeNext(): void {
    const target = this.#nextTarget();
    if (target) void this.#probe(target);
  }

  #nextTarget(): MemberRecord | undefined {
    for (let tries = 0; tries < 2; tries++) {
      while (this.#order.length > 0) {
        const name = this.#order.shift() as string;
        const m = this.o.table.get(name);
        if (m && name !== this.o.selfName && (m.state === 'alive' || m.state === 'suspect')) return m;
      }
      // One pass over a fresh shuffle guarantees every member a probe within n intervals.
      this.#order = pickRandom(this.o.random, this.o.table.live(), Number.MAX_SAFE_INTEGER).map((m) => m.name);
    }
    return undefined;
  }

  async #probe(target: MemberRecord): Promise<void> {
    const c = this.o.config;
    const scale = this.#health + 1;
    const seq = ++this.#seq;
    const acked = this.#await(seq, c.probeIntervalMs * scale);
    this.o.send(target, [{ t: 'ping', seq, node: target.name, from: this.o.selfName }]);
    if (await Promise.race([acked, this.#sleep(c.probeTimeoutMs * scale)])) return this.#adjust(-1);

    for (const peer of pickRandom(
      this.o.random,
      this.o.table.live().filter((m) => m.name !== target.name),
      c.indirectChecks,
    )) {
      this.o.send(peer, [
        { t: 'ping-req', seq, node: target.name, addr: target.addr, port: target.port, from: this.o.selfName },
      ]);
    }
    const viaTcp = this.o.streamPing(target, target.name).then(
      () => true,
      () => false,
    );
    const ok = await Promise.race([acked, viaTcp.then((v) => v || acked)]);
    if (this.#isStopped) return;
    if (ok) return this.#adjust(-1);
    this.#adjust(1);
    const now = this.o.table.get(target.name);
    if (now && now.incarnation === target.incarnation) {
      this.o.table.suspect({ t: 'suspect', node: target.name, inc: target.incarnation, from: this.o.selfName });
    }
  }

  #adjust(delta: number): void {
    this.#health = Math.min(AWARENESS_MAX_MULTIPLIER - 1, Math.max(0, this.#health + delta));
  }

  /** Resolves true on an ack for `seq`, false after `ms`. */
  #await(seq: number, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const cancel = this.o.clock.setTimeout(() => finish(false), ms);
      this.#timers.add(cancel);
      const finish = (ok: boolean) => {
        cancel();
        this.#timers.delete(cancel);
        this.#waiting.delete(seq);
        resolve(ok);
      };
      this.#waiting.set(seq, finish);
    });
  }

  #sleep(ms: number): Promise<false> {
    return new Promise((resolve) => {
      const cancel = this.o.clock.setTimeout(() => {
        this.#timers.delete(cancel);
        resolve(false);
      }, ms);
      this.#timers.add(cancel);
    });
  }

  onAck(seq: number, ok: boolean): void {
    const relay = this.#relays.get(seq);
    if (relay) {
      this.#relays.delete(seq);
      this.o.send(relay.to, [{ t: ok ? 'ack' : 'nack', seq: relay.seq }]);
      return;
    }
    if (ok) this.#waiting.get(seq)?.(true);
  }

  /** Pings `req.node` on behalf of `from` and forwards the ack (or a nack on timeout). */
  relay(req: Extract<Message, { t: 'ping-req' }>, from: Address): void {
    const seq = ++this.#seq;
    this.#relays.set(seq, { seq: req.seq, to: from });
    this.o.send({ addr: req.addr, port: req.port }, [{ t: 'ping', seq, node: req.node, from: this.o.selfName }]);
    const cancel = this.o.clock.setTimeout(() => {
      this.#timers.delete(cancel);
      if (this.#relays.delete(seq)) this.o.send(from, [{ t: 'nack', seq: req.seq }]);
    }, this.o.config.probeTimeoutMs);
    this.#timers.add(cancel);
  }

  stop(): void {
    this.#isStopped = true;
    for (const cancel of this.#timers) cancel();
    this.#timers.clear();
    for (const finish of this.#waiting.values()) finish(false);
  }
}
