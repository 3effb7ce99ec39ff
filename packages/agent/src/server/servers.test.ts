import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemberRecord } from '../gossip/messages.js';
import { isBootstrapReached, peerSet, rpcAddressOf } from './servers.js';

const member = (name: string, state: MemberRecord['state'], region = 'global'): MemberRecord => ({
  name,
  addr: '127.0.0.1',
  port: 1,
  tags: { role: 'nomad', region, rpc_addr: '127.0.0.1', port: '9000' },
  incarnation: 0,
  state,
  leaving: false,
  statusLTime: 0,
});

describe('server pool', () => {
  it('is bootstrapped once bootstrap_expect servers of the region are alive', () => {
    const ms = [member('s3.global', 'alive'), member('s2.global', 'alive'), member('s4.global', 'dead')];
    assert.equal(isBootstrapReached(ms, 'global', 3), false);
    ms.push(member('s1.global', 'alive'));
    assert.equal(isBootstrapReached(ms, 'global', 3), true);
  });

  it('drops left servers and other regions from the peer set', () => {
    const ms = [member('a', 'alive'), member('b', 'dead'), member('c', 'left'), member('d', 'alive', 'eu')];
    assert.deepEqual(
      peerSet(ms, 'global').map((m) => m.name),
      ['a', 'b'],
    );
    assert.equal(rpcAddressOf(ms[0]!), '127.0.0.1:9000');
  });
});
