import { readdirSync } from 'node:fs';
import { Location, Function as PprofFunction, Profile, StringTable } from 'pprof-format';

/**
 * The Go runtime profiles Node has no exact counterpart for, as valid pprof profiles
 * with the established sample types, filled with the closest Node facts:
 * - `goroutine`: the live async resources (sockets, timers, servers…), one sample per kind;
 * - `threadcreate`: the process's OS threads (main, libuv pool, V8 workers);
 * - `block`, `mutex`: no samples: JavaScript never blocks on a lock.
 */
export const RUNTIME_PROFILES: ReadonlyMap<string, (nowMs: number) => Profile> = new Map([
  ['goroutine', (nowMs: number) => counted(nowMs, 'goroutine', 'count', activeResources())],
  ['threadcreate', (nowMs: number) => counted(nowMs, 'threadcreate', 'count', new Map([['thread', threadCount()]]))],
  ['block', (nowMs: number) => empty(nowMs)],
  ['mutex', (nowMs: number) => empty(nowMs)],
]);

function activeResources(): Map<string, number> {
  const kinds = (process as unknown as { getActiveResourcesInfo(): string[] }).getActiveResourcesInfo();
  const counts = new Map<string, number>();
  for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

function threadCount(): number {
  try {
    return readdirSync('/proc/self/task').length;
  } catch {
    return 1;
  }
}

/** One sample per name, its value the count, under a one-frame stack named after it. */
function counted(nowMs: number, type: string, unit: string, counts: Map<string, number>): Profile {
  const strings = new StringTable();
  const valueType = { type: strings.dedup(type), unit: strings.dedup(unit) };
  const functions: PprofFunction[] = [];
  const locations: Location[] = [];
  const samples = [...counts].map(([name, count], i) => {
    const id = i + 1;
    functions.push(new PprofFunction({ id, name: strings.dedup(name), systemName: strings.dedup(name) }));
    locations.push(new Location({ id, line: [{ functionId: id }] }));
    return { locationId: [id], value: [count] };
  });
  return new Profile({
    sampleType: [valueType],
    periodType: valueType,
    period: 1,
    sample: samples,
    location: locations,
    function: functions,
    stringTable: strings,
    timeNanos: BigInt(nowMs) * 1_000_000n,
  });
}

/** Go's block and mutex sample types, with no samples. */
function empty(nowMs: number): Profile {
  const strings = new StringTable();
  const contentions = { type: strings.dedup('contentions'), unit: strings.dedup('count') };
  const delay = { type: strings.dedup('delay'), unit: strings.dedup('nanoseconds') };
  return new Profile({
    sampleType: [contentions, delay],
    periodType: contentions,
    period: 1,
    stringTable: strings,
    timeNanos: BigInt(nowMs) * 1_000_000n,
  });
}
