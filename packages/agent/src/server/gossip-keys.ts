import { join } from 'node:path';
import type { Logger, Random } from '@ward/base';
import { InvalidRequestError } from '../errors.js';
import { Keyring } from '../gossip/keyring.js';
import { readDurableJson, writeDurable } from '../persist/durable-file.js';

/** The keyring operations of `operator gossip keyring` (and `/v1/agent/keyring/<op>`). */
export type KeyringOp = 'list' | 'install' | 'use' | 'remove';
export const KEYRING_OPS: ReadonlySet<string> = new Set<KeyringOp>(['list', 'install', 'use', 'remove']);

/**
 * A server's gossip keyring and where it is kept: `<data_dir>/serf/keyring` (mode 0600,
 * fsynced), so keys installed by rotation survive a restart and `encrypt` only seeds the
 * first start, as Serf's keyring file does.
 */
export class GossipKeys {
  private constructor(
    readonly keyring: Keyring | undefined,
    private readonly path: string | undefined,
  ) {}

  /** The kept keyring, else one from `encrypt`, else none (gossip in the clear). */
  static open(o: { dataDir: string; encrypt: string; random: Random; log: Logger }): GossipKeys {
    const path = o.dataDir ? join(o.dataDir, 'serf', 'keyring') : undefined;
    const saved = path ? readDurableJson(path) : undefined;
    const kept = Array.isArray(saved) ? saved.filter((k): k is string => typeof k === 'string') : [];
    if (kept.length > 0) {
      if (o.encrypt && !kept.includes(o.encrypt)) {
        o.log.warn('agent: the encrypt key is not in the keyring kept in the data dir; using the kept keyring', {
          path,
        });
      }
      return new GossipKeys(new Keyring(kept, o.random), path);
    }
    if (!o.encrypt) return new GossipKeys(undefined, path);
    const keys = new GossipKeys(new Keyring([o.encrypt], o.random), path);
    keys.#save();
    return keys;
  }

  get isEnabled(): boolean {
    return this.keyring !== undefined;
  }

  /** Runs one operation on this server's keyring; returns its keys afterwards (primary first). */
  apply(op: KeyringOp, key: string): string[] {
    const k = this.keyring;
    if (!k) throw new InvalidRequestError('Gossip encryption is not enabled on this server (no encrypt key)');
    if (op !== 'list') {
      if (!key) throw new InvalidRequestError('missing Key');
      if (op === 'install') k.install(key);
      else if (op === 'use') k.use(key);
      else k.remove(key);
      this.#save();
    }
    return k.list();
  }

  #save(): void {
    if (this.path && this.keyring) writeDurable(this.path, JSON.stringify(this.keyring.list()));
  }
}
