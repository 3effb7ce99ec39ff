import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemberRecord } from '../gossip/messages.js';
import { chooseLeader, isBootstrapReached, peerSet, rpcAddressOf } from './servers.js';

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
  it('elects no leader before bootstrap_expect servers are alive, then the smallest name', () => {
    const ms = [member('s3.global', 'alive'), member('s2.global', 'alive')];
    assert.equal(isBootstrapReached(ms, 'global', 3), false);
    assert.equal(chooseLeader(ms, 'global', false), undefined);
    ms.push(member('s1.global', 'alive'));
    assert.equal(isBootstrapReached(ms, 'global', 3), true);
    assert.equal(chooseLeader(ms, 'global', true)?.name, 's1.global');
  });

  it('keeps a leader while a majority is alive, and regains one when a failed peer is forced out', () => {
    const ms = [member('s1.global', 'dead'), member('s2.global', 'alive'), member('s3.global', 'dead')];
    assert.equal(chooseLeader(ms, 'global', true), undefined);
    ms[0] = member('s1.global', 'left');
    assert.equal(chooseLeader(ms, 'global', true), undefined);
    ms[2] = member('s3.global', 'left');
    assert.equal(chooseLeader(ms, 'global', true)?.name, 's2.global');
    const two = [member('a', 'alive'), member('b', 'alive'), member('c', 'dead')];
    assert.equal(chooseLeader(two, 'global', true)?.name, 'a');
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
