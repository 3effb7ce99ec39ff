import type { Writable } from 'node:stream';
import { type Command as BaseCommand, type Clock, commandDefiner, type Random } from '@ward/base';

/** What `main` hands every command: the process's stdout, environment, clock and randomness. */
export interface PlatformIo {
  env: NodeJS.ProcessEnv;
  stdout: Writable;
  clock: Clock;
  random: Random;
}

/** A `ward-platform` command, ready for the table. */
export type Command = BaseCommand<PlatformIo>;

/**
 * Declares a `ward-platform` command (one file in commands/, one line in command-table.ts):
 * Go-style flags and durations, help written out, and the process's `PlatformIo` as context.
 */
export const defineCommand = commandDefiner<PlatformIo, PlatformIo, bigint>({
  globalFlags: {},
  durationStyle: 'go',
  durationValue: (ns) => ns,
  stdout: (io) => io.stdout,
  context: async (_parsed, io) => io,
});
