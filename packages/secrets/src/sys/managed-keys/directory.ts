import type { Random } from '@ward/base';
import type { Storage } from '../../logical/storage.js';
import type { KmsDeps } from '../kms/index.js';
import { ManagedKeys } from './managed-keys.js';

/**
 * The managed keys of every open namespace, built at the composition root: the system backend
 * of a namespace opens its set, and engines reach keys through the core's narrow
 * `SystemView.managedKey`, which looks them up here.
 */
export class ManagedKeyDirectory {
  readonly #byNamespace = new Map<string, ManagedKeys>();

  constructor(readonly kms: KmsDeps) {}

  /** The keys of a namespace, stored in its `sys/` storage (reopened at each unseal). */
  open(namespaceId: string, storage: Storage, random: Random): ManagedKeys {
    void this.#byNamespace.get(namespaceId)?.close();
    const keys = new ManagedKeys(storage, { ...this.kms, random });
    this.#byNamespace.set(namespaceId, keys);
    return keys;
  }

  of(namespaceId: string): ManagedKeys | undefined {
    return this.#byNamespace.get(namespaceId);
  }
}
