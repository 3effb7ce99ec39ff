import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cryptoRandom, SeededRandom, silentLogger, systemClock } from '@ward/base';
import { EncryptedTransport } from './encrypted-transport.js';
import { generateGossipKey, Keyring, parseGossipKey } from './keyring.js';
import { MemoryNetwork } from './memory-network.js';
import { transportCases } from './transport.case.js';

const random = new SeededRandom(7);
const K1 = generateGossipKey(random);
const K2 = generateGossipKey(random);

describe('Keyring', () => {
  it('accepts base64 of 16, 24 or 32 bytes and nothing else', () => {
    for (const n of [16, 24, 32]) assert.equal(parseGossipKey(Buffer.alloc(n, 1).toString('base64')).length, n);
    for (const bad of ['', 'not base64!', Buffer.alloc(20).toString('base64'), `${K1}x`]) {
      assert.throws(() => parseGossipKey(bad), { code: 'invalid_request' }, bad);
    }
  });

  it('opens what any of its keys sealed, and refuses tampering and strangers', () => {
    const a = new Keyring([K1], random);
    const b = new Keyring([K2, K1], random);
    const sealed = a.encrypt(Buffer.from('hello'));
    assert.equal(b.decrypt(sealed)?.toString(), 'hello');
    assert.equal(new Keyring([K2], random).decrypt(sealed), undefined);
    const flipped = Buffer.from(sealed);
    flipped[20] = (flipped[20] as number) ^ 1;
    assert.equal(a.decrypt(flipped), undefined);
    assert.equal(a.decrypt(Buffer.from('{"t":"ping"}')), undefined);
  });

  it('rotates: install, use, remove; never removes the primary', () => {
    const k = new Keyring([K1], random);
    k.install(K2);
    assert.deepEqual(k.list(), [K1, K2]);
    assert.throws(() => k.remove(K1), /primary/);
    k.use(K2);
    assert.deepEqual(k.list(), [K2, K1]);
    k.remove(K1);
    assert.deepEqual(k.list(), [K2]);
    assert.throws(() => k.use(K1), /not in the keyring/);
    // Sealed with the new primary: a member holding only the old key cannot read it.
    assert.equal(new Keyring([K1], random).decrypt(k.encrypt(Buffer.from('x'))), undefined);
  });
});

describe('EncryptedTransport (over MemoryTransport)', () => {
  transportCases(async () => {
    const net = new MemoryNetwork(systemClock);
    const wrap = () => new EncryptedTransport(net.createTransport(), new Keyring([K1], cryptoRandom), silentLogger);
    return { a: wrap(), b: wrap(), nowhere: { addr: '10.0.0.1', port: 1 }, close: async () => {} };
  });

  it('drops packets and refuses requests from a node without the key', async () => {
    const net = new MemoryNetwork(systemClock);
    const member = new EncryptedTransport(net.createTransport(), new Keyring([K1], random), silentLogger);
    const stranger = new EncryptedTransport(net.createTransport(), new Keyring([K2], random), silentLogger);
    const plain = net.createTransport();
    const got: string[] = [];
    member.onPacket((d) => got.push(Buffer.from(d).toString()));
    member.onRequest(async () => Buffer.from('state'));
    stranger.sendPacket(member.local, Buffer.from('alive'));
    plain.sendPacket(member.local, Buffer.from('alive'));
    await assert.rejects(stranger.request(member.local, Buffer.from('push-pull'), 1000));
    await assert.rejects(plain.request(member.local, Buffer.from('push-pull'), 1000));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(got, []);
  });
});
