import type { Logger } from '@ward/base';
import type { Keyring } from './keyring.js';
import type { Address, Transport } from './transport.js';

/**
 * Gossip encryption (the `encrypt` key): every datagram and every push-pull frame, both
 * ways, is sealed with the keyring's primary key and opened with any of its keys. What no
 * key opens is dropped: a member without the key is never heard, so it cannot join, probe,
 * or spread members.
 */
export class EncryptedTransport implements Transport {
  constructor(
    private readonly inner: Transport,
    readonly keyring: Keyring,
    private readonly log: Logger,
  ) {}

  get local(): Address {
    return this.inner.local;
  }

  sendPacket(to: Address, data: Uint8Array): void {
    this.inner.sendPacket(to, this.keyring.encrypt(data));
  }

  onPacket(handler: (data: Uint8Array, from: Address) => void): void {
    this.inner.onPacket((data, from) => {
      const plain = this.keyring.decrypt(data);
      if (plain) handler(plain, from);
      else this.log.debug('memberlist: dropped a packet no gossip key decrypts', { from: `${from.addr}:${from.port}` });
    });
  }

  async request(to: Address, data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    const reply = await this.inner.request(to, this.keyring.encrypt(data), timeoutMs);
    const plain = this.keyring.decrypt(reply);
    if (!plain) throw new Error(`no gossip key decrypts the reply of ${to.addr}:${to.port}`);
    return plain;
  }

  onRequest(handler: (data: Uint8Array) => Promise<Uint8Array>): void {
    this.inner.onRequest(async (data) => {
      const plain = this.keyring.decrypt(data);
      if (!plain) {
        this.log.warn('memberlist: refused a stream no gossip key decrypts (a node without the key trying to join?)');
        throw new Error('no gossip key decrypts the request');
      }
      return this.keyring.encrypt(await handler(plain));
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
