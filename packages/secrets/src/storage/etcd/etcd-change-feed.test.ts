import { after, before, describe } from 'node:test';
import { changeFeedCases } from '../change-feed.case.js';
import { type EtcdProcess, startEtcd } from '../testing.js';
import { EtcdStorage } from './etcd.js';
import { EtcdChangeFeed } from './etcd-change-feed.js';

describe('EtcdChangeFeed (issue 19 point 7)', () => {
  let etcd: EtcdProcess;
  let stores = 0;
  before(async () => {
    etcd = await startEtcd();
  });
  after(() => etcd?.stop());

  // Two clients on one prefix, as two server processes open it; each fixture has a prefix of its own.
  changeFeedCases(async () => {
    const prefix = `feed-${++stores}/`;
    const reader = new EtcdStorage({ hosts: [etcd.url], prefix });
    const writer = new EtcdStorage({ hosts: [etcd.url], prefix });
    return {
      feed: new EtcdChangeFeed(reader),
      writer,
      writerFeed: new EtcdChangeFeed(writer),
      async close() {
        await reader.close();
        await writer.close();
      },
    };
  });
});
