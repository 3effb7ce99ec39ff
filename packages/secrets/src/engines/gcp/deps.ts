import type { Clock, Random } from '@ward/base';
import { KeyedMutex } from '../../framework/index.js';
import type { GoogleApis } from '../../google/apis.js';
import { GoogleClientCache } from '../../google/client-cache.js';
import type { Storage } from '../../logical/storage.js';
import { type EngineConfig, gcpEngineStore } from './gcp-store.js';

/** What the engine's paths and its lease type share. */
export interface GcpEngineDeps {
  clock: Clock;
  random: Random;
  /** One writer at a time per roleset / static account / the config (`roleset/<name>`…). */
  locks: KeyedMutex;
  /** The SDK clients of the mount's configuration, acting as its account. */
  apis(storage: Storage): Promise<GoogleApis>;
  /** The same for a given configuration (rotate-root, right after changing it). */
  apisOf(config: EngineConfig): GoogleApis;
}

export function gcpEngineDeps(clock: Clock, random: Random): GcpEngineDeps {
  const clients = new GoogleClientCache(clock);
  const apisOf = (config: EngineConfig) => clients.apis(config.credentials, config.endpoints);
  return {
    clock,
    random,
    locks: new KeyedMutex(),
    apisOf,
    apis: async (storage) => apisOf(await gcpEngineStore.config(storage)),
  };
}
