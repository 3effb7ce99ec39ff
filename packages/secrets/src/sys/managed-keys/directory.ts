/** Managed keys (`sys/managed-keys`): stored definitions per namespace, validated per key type. @module */
import type { Random } from '@ward/base';
import type { ManagedKeyRef, ManagedKeySigner } from '../../framework/index.js';
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

  /** The keys of a namespace, stored in the `sys/` storage (reopened at each unseal). */
  open(namespaceId: string, storage: Storage, random: Random): ManagedKeys {
    void this.#byNamespace.get(namespaceId)?.close();
    const keys = new ManagedKeys(storage, namespaceId, { ...this.kms, random });
    this.#byNamespace.set(namespaceId, keys);
    return keys;
  }

  of(namespaceId: string): ManagedKeys | undefined {
    return this.#byNamespace.get(namespaceId);
  }

  /** A key of a namespace as engines use it (the core then checks the mount may use it). */
  async find(namespaceId: string, ref: ManagedKeyRef): Promise<(ManagedKeySigner & { anyMount: boolean }) | undefined> {
    const keys = this.#byNamespace.get(namespaceId);
    const record = await ('name' in ref ? keys?.get(ref.name) : keys?.byId(ref.id));
    if (!keys || !record) return undefined;
    return {
      id: record.UUID,
      name: record.name,
      anyMount: record.params.any_mount === true,
      // Each call asks for the live provider: an updated key gets its new connection.
      sign: (digest, scheme) => keys.backend(record).sign(Buffer.from(digest), scheme),
      publicKey: () => keys.backend(record).publicKey(),
    };
  }
}
