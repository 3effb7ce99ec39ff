import type { Clock, Logger, Random } from '@ward/base';
import type { KeyedMutex, SystemView } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { configs, type DatabaseConfig } from './config-store.js';
import type { Connections } from './connections.js';

/** What the engine's paths, secret types and scheduled tasks share. */
export interface DatabaseDeps {
  storage: Storage;
  clock: Clock;
  random: Random;
  system: SystemView;
  logger: Logger;
  connections: Connections;
  /** Per config name (`config:x`) and per static role (`static:x`): changes of one never overlap. */
  locks: KeyedMutex;
  /** Random per backend instance: write-ahead records of another instance are left from a crash. */
  instanceId: string;
}

/** The config named `name`; 400 in the established words when there is none. */
export async function requireConfig(storage: Storage, name: string): Promise<DatabaseConfig> {
  if (!name) throw new InvalidRequestError('empty database name attribute');
  const config = await configs.get(storage, name);
  if (!config) throw new InvalidRequestError(`failed to find entry for connection with name: "${name}"`);
  return config;
}

/** Throws the empty 404 of a read that found nothing. */
export function notFound(): never {
  throw new NotFoundError('');
}
