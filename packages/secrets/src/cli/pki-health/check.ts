import { parseDuration } from '@ward/base';
import { CliError } from '../command.js';
import type { Finding, MountReader } from './result.js';

/** A check's settings: `enabled` and its own parameters, defaults overlaid by the -health-config file. */
export type CheckConfig = Record<string, unknown>;

export interface Check {
  name: string;
  defaults: CheckConfig;
  run(reader: MountReader, config: CheckConfig, nowMs: number): Promise<Finding[]>;
}

/** A duration setting (`"7d"`, `"200ms"`, or seconds as a number) in milliseconds. */
export function millis(config: CheckConfig, key: string): number {
  const value = config[key];
  try {
    return typeof value === 'number' ? value * 1000 : Number(parseDuration(String(value), 'api') / 1_000_000n);
  } catch {
    throw new CliError(`the health check setting ${key}=${String(value)} is not a duration`, 2);
  }
}
