import type { Message } from './messages.js';

interface Queued {
  msg: Message;
  key: string;
  transmits: number;
}

/**
 * Messages waiting to be piggy-backed on outgoing packets. Each is sent a bounded
 * number of times (retransmitMult × ceil(log10(n+1))), fewest-sent first, and a newer
 * message about the same member replaces the older one.
 */
export class BroadcastQueue {
  #items: Queued[] = [];

  constructor(private readonly retransmitMult: number) {}

  /** Queues `msg`, dropping any queued message about the same member. */
  push(msg: Message): void {
    const key = 'node' in msg ? `${msg.t === 'leave-intent' ? 'intent' : 'state'}:${msg.node}` : msg.t;
    this.#items = this.#items.filter((q) => q.key !== key);
    this.#items.push({ msg, key, transmits: 0 });
  }

  /** Up to `budgetBytes` of messages (at least one if any), counting one transmit each. */
  take(budgetBytes: number, clusterSize: number): Message[] {
    const limit = this.retransmitMult * Math.ceil(Math.log10(clusterSize + 1));
    this.#items.sort((a, b) => a.transmits - b.transmits);
    const out: Message[] = [];
    let used = 0;
    for (const q of this.#items) {
      const size = JSON.stringify(q.msg).length;
      if (out.length > 0 && used + size > budgetBytes) break;
      out.push(q.msg);
      used += size;
      q.transmits++;
    }
    this.#items = this.#items.filter((q) => q.transmits < limit);
    return out;
  }

  get length(): number {
    return this.#items.length;
  }
}
