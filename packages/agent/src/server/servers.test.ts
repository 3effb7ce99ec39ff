import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemberRecord } from '../gossip/messages.js';
import { chooseLeader, peerSet, rpcAddressOf } from './servers.js';

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
  it('elects no leader until bootstrap_expect servers are alive, then the smallest name', () => {
    const ms = [member('s3.global', 'alive'), member('s2.global', 'alive')];
    assert.equal(chooseLeader(ms, 'global', 3), undefined);
    ms.push(member('s1.global', 'alive'));
    assert.equal(chooseLeader(ms, 'global', 3)?.name, 's1.global');
    ms[2] = member('s1.global', 'dead');
    assert.equal(chooseLeader(ms, 'global', 2)?.name, 's2.global');
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
