import { createSocket, type Socket } from 'node:dgram';
import { type Answer, decode, encode, type Packet } from 'dns-packet';

/**
 * An authoritative DNS server on a loopback UDP port, for the ACME dns-01 tests: TXT and A records
 * set by the test, answered over the real DNS wire (RFC 1035, through `dns-packet`); a name it has
 * no record of answers NXDOMAIN. Node's `dns.Resolver#setServers(['127.0.0.1:<port>'])` asks it.
 */
export class FakeDnsServer {
  readonly #txt = new Map<string, string[]>();
  readonly #a = new Map<string, string>();
  readonly #socket: Socket = createSocket('udp4');
  /** Every question asked, as `TYPE name`, for tests that check what was looked up. */
  readonly asked: string[] = [];

  /** Starts listening on 127.0.0.1 and an ephemeral port; answers `host:port`. */
  async start(): Promise<string> {
    this.#socket.on('message', (message, peer) => {
      const reply = this.#answer(message);
      if (reply) this.#socket.send(reply, peer.port, peer.address);
    });
    await new Promise<void>((resolve) => this.#socket.bind(0, '127.0.0.1', resolve));
    return `127.0.0.1:${this.#socket.address().port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.#socket.close(() => resolve()));
  }

  /** Adds a TXT record (one string) for `name`; a name may hold several. */
  addTxt(name: string, value: string): void {
    const key = name.toLowerCase();
    this.#txt.set(key, [...(this.#txt.get(key) ?? []), value]);
  }

  /** Removes `value` from `name`'s TXT records. */
  removeTxt(name: string, value: string): void {
    const key = name.toLowerCase();
    this.#txt.set(
      key,
      (this.#txt.get(key) ?? []).filter((v) => v !== value),
    );
  }

  /** Sets the A record of `name`. */
  setA(name: string, address: string): void {
    this.#a.set(name.toLowerCase(), address);
  }

  #answer(message: Buffer): Buffer | undefined {
    let query: Packet;
    try {
      query = decode(message);
    } catch {
      return undefined;
    }
    const answers: Answer[] = [];
    let known = false;
    for (const q of query.questions ?? []) {
      const name = q.name.toLowerCase();
      this.asked.push(`${q.type} ${name}`);
      const txt = this.#txt.get(name) ?? [];
      const a = this.#a.get(name);
      if (txt.length > 0 || a) known = true;
      if (q.type === 'TXT')
        for (const value of txt) answers.push({ type: 'TXT', name: q.name, ttl: 1, class: 'IN', data: value });
      if (q.type === 'A' && a) answers.push({ type: 'A', name: q.name, ttl: 1, class: 'IN', data: a });
    }
    return encode({
      id: query.id,
      type: 'response',
      // Authoritative answer; NXDOMAIN (rcode 3) for a name the server has nothing of.
      flags: 0x0400 | (known ? 0 : 3),
      questions: query.questions,
      answers,
    });
  }
}
