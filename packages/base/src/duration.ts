const NANOS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
  // Not Go's, but the established secrets servers accept days.
  ['d', 86_400_000_000_000n],
]);

/** One `<amount><unit>` part: `1`, `1.5`, `.5` or `1.` before the unit. */
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h|d)/g;

/**
 * The one duration parser of the three binaries: a Go-style duration (`"250ms"`, `"1h30m"`,
 * `"1.5s"`, `"2d"`) as integer nanoseconds, summed exactly as Go does (in floating point
 * 2.05 * 60 s would be 122.999… s). `undefined` when `text` is not such a duration; what a bare
 * number means (seconds or milliseconds) is the caller's to decide.
 */
export function parseGoDuration(text: string): bigint | undefined {
  let nanos = 0n;
  let consumed = 0;
  for (const [whole, amount = '', unit = ''] of text.matchAll(PART)) {
    const scale = NANOS.get(unit) ?? 0n;
    const [integer = '', fraction = ''] = amount.split('.');
    nanos += BigInt(integer || '0') * scale;
    if (fraction !== '') nanos += (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length);
    consumed += whole.length;
  }
  return consumed === text.length && consumed > 0 ? nanos : undefined;
}
