import { createHash } from 'node:crypto';
import { type Clock, type Random, randomBase62 } from '@ward/base';
import { arity, BUILTIN_FUNCTIONS, intArg } from './builtins.js';
import { formatGoTime } from './go-time.js';
import type { TemplateFunction } from './template.js';
import { bytesOf, TemplateError, textOf } from './values.js';

/** What the functions that read time or draw randomness use. */
export interface FunctionDeps {
  clock: Clock;
  random: Random;
}

function uuid(random: Random): string {
  const hex = Buffer.from(random.bytes(16)).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function truncateSha256(max: number, input: Buffer): Buffer {
  if (max <= 8) throw new TemplateError(`max length must be > 8 but was ${max}`);
  if (input.length <= max) return input;
  // The hash is of the part cut off, so two long names with one prefix still differ.
  const tail = input.subarray(max - 8);
  const digest = createHash('sha256').update(tail).digest('hex').slice(0, 8);
  return Buffer.concat([input.subarray(0, max - 8), Buffer.from(digest)]);
}

/** The spec's custom functions, by name (`utf16le` only with `isLdif`). */
export function templateFunctions(d: FunctionDeps, o: { isLdif: boolean }): ReadonlyMap<string, TemplateFunction> {
  const funcs = new Map<string, TemplateFunction>(BUILTIN_FUNCTIONS);
  funcs.set(
    'random',
    arity('random', 1, ([n]) => randomBase62(d.random, Math.max(0, intArg(n ?? null)))),
  );
  funcs.set(
    'truncate',
    arity('truncate', 2, ([n, x]) => {
      const max = intArg(n ?? null);
      if (max <= 0) throw new TemplateError(`max length must be > 0 but was ${max}`);
      const bytes = bytesOf(x ?? '');
      return bytes.length <= max ? (x ?? '') : bytes.subarray(0, max);
    }),
  );
  funcs.set(
    'truncate_sha256',
    arity('truncate_sha256', 2, ([n, x]) => truncateSha256(intArg(n ?? null), bytesOf(x ?? ''))),
  );
  funcs.set(
    'uppercase',
    arity('uppercase', 1, ([x]) => textOf(x ?? '').toUpperCase()),
  );
  funcs.set(
    'lowercase',
    arity('lowercase', 1, ([x]) => textOf(x ?? '').toLowerCase()),
  );
  funcs.set(
    'replace',
    arity('replace', 3, ([find, repl, x]) =>
      textOf(x ?? '')
        .split(textOf(find ?? ''))
        .join(textOf(repl ?? '')),
    ),
  );
  funcs.set(
    'sha256',
    arity('sha256', 1, ([x]) =>
      createHash('sha256')
        .update(bytesOf(x ?? ''))
        .digest('hex'),
    ),
  );
  funcs.set(
    'base64',
    arity('base64', 1, ([x]) => bytesOf(x ?? '').toString('base64')),
  );
  funcs.set(
    'unix_time',
    arity('unix_time', 0, () => String(Math.floor(d.clock.now() / 1000))),
  );
  funcs.set(
    'unix_time_millis',
    arity('unix_time_millis', 0, () => String(d.clock.now())),
  );
  funcs.set(
    'timestamp',
    arity('timestamp', 1, ([layout]) => formatGoTime(new Date(d.clock.now()), textOf(layout ?? ''))),
  );
  funcs.set(
    'uuid',
    arity('uuid', 0, () => uuid(d.random)),
  );
  if (o.isLdif)
    funcs.set(
      'utf16le',
      arity('utf16le', 1, ([x]) => Buffer.from(textOf(x ?? ''), 'utf16le')),
    );
  return funcs;
}
