/** Debug endpoints' data: host facts (with secrets filtered out), runtime profiles and traces. @module */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Clock } from '@ward/base';
import { InternalError, NotFoundError } from '../errors.js';
import { RUNTIME_PROFILES } from './runtime-profiles.js';
import { captureTrace } from './trace.js';

const gzipAsync = promisify(gzip);

export interface ProfileResult {
  contentType: string;
  /** Set for binary profiles: the attachment name. */
  filename?: string;
  body: Buffer;
}

export interface ProfileRequest {
  profile: string;
  seconds: number;
  debug: number;
  gc: number;
  /** Aborted when the caller hangs up: a running CPU profile or trace stops at once. */
  signal: AbortSignal;
}

/** pprof profiles Node can produce: CPU (V8 sampling) and heap (V8 sampling heap profiler). */
const BINARY_PROFILES = new Set(['profile', 'heap', 'allocs']);

/** How often the heap profiler samples, and how deep it records stacks. */
const HEAP_INTERVAL_BYTES = 512 * 1024;
const HEAP_STACK_DEPTH = 64;

type PprofModule = typeof import('@datadog/pprof');

/**
 * Runtime profiles in the pprof format (gzip-compressed protobuf) via @datadog/pprof,
 * loaded on first use so an agent that is never profiled never loads the native module.
 * One object per agent: it remembers whether heap sampling has started.
 */
export class Profiler {
  #mod: PprofModule | undefined;
  #isHeapStarted = false;
  #isBusy = false;

  constructor(
    private readonly argv: string[],
    private readonly clock: Clock,
  ) {}

  async run(req: ProfileRequest): Promise<ProfileResult> {
    if (req.profile === 'cmdline')
      return { contentType: 'text/plain; charset=utf-8', body: Buffer.from(this.argv.join('\x00')) };
    if (req.profile === 'trace')
      return this.#exclusive(async () => ({
        contentType: 'application/octet-stream',
        filename: 'trace',
        body: await this.#trace(req.seconds, req.signal),
      }));
    const runtime = RUNTIME_PROFILES.get(req.profile);
    if (runtime) {
      const profile = runtime(this.clock.now());
      if (req.debug > 0) return text(req.profile, profile);
      return {
        contentType: 'application/octet-stream',
        filename: req.profile,
        body: await gzipAsync(profile.encode()),
      };
    }
    if (!BINARY_PROFILES.has(req.profile)) throw new NotFoundError(`Pprof profile not found profile: ${req.profile}`);
    const pprof = await this.#load();
    const profile =
      req.profile === 'profile'
        ? await this.#exclusive(() => this.#cpu(pprof, req.seconds, req.signal))
        : await this.#heap(pprof, req.gc);
    if (req.debug > 0) return text(req.profile, profile);
    return { contentType: 'application/octet-stream', filename: req.profile, body: await pprof.encode(profile) };
  }

  async #trace(seconds: number, signal: AbortSignal): Promise<Buffer> {
    const body = await captureTrace(() => sleep(this.clock, seconds * 1000, signal));
    if (signal.aborted) throw new InternalError('trace cancelled: the client went away');
    return body;
  }

  /** A CPU profile of `seconds`, stopped early (and the result dropped) when `signal` aborts. */
  async #cpu(pprof: PprofModule, seconds: number, signal: AbortSignal) {
    pprof.time.start({ durationMillis: seconds * 1000 });
    await sleep(this.clock, seconds * 1000, signal);
    const profile = pprof.time.stop();
    if (signal.aborted) throw new InternalError('profile cancelled: the client went away');
    return profile;
  }

  async #load(): Promise<PprofModule> {
    this.#mod ??= await import('@datadog/pprof');
    return this.#mod;
  }

  /** V8 runs one CPU profiler and one tracer per process: a second concurrent request would corrupt the first. */
  async #exclusive<T>(run: () => Promise<T>): Promise<T> {
    if (this.#isBusy) throw new InternalError('a CPU profile or trace is already running');
    this.#isBusy = true;
    try {
      return await run();
    } finally {
      this.#isBusy = false;
    }
  }

  async #heap(pprof: PprofModule, gc: number) {
    if (!this.#isHeapStarted) {
      pprof.heap.start(HEAP_INTERVAL_BYTES, HEAP_STACK_DEPTH);
      this.#isHeapStarted = true;
    }
    if (gc > 0) (globalThis as { gc?: () => void }).gc?.();
    return pprof.heap.profile();
  }
}

function text(name: string, profile: unknown): ProfileResult {
  return { contentType: 'text/plain; charset=utf-8', body: Buffer.from(describe(name, profile)) };
}

/** Waits `ms` on `clock`, or less when `signal` aborts first. */
function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const cancel = clock.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      cancel();
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

interface TextProfile {
  sampleType: Array<{ type: number | bigint; unit: number | bigint }>;
  sample: Array<{ locationId: Array<number | bigint>; value: Array<number | bigint> }>;
  location: Array<{ id: number | bigint; line: Array<{ functionId: number | bigint; line: number | bigint }> }>;
  function: Array<{ id: number | bigint; name: number | bigint; filename: number | bigint }>;
  stringTable: { strings: string[] };
}

/** `debug=1`: a readable summary, the top functions by the last sample value (self). */
function describe(name: string, p: unknown): string {
  const prof = p as TextProfile;
  const str = (i: number | bigint) => prof.stringTable.strings[Number(i)] ?? '';
  const fns = new Map(prof.function.map((f) => [Number(f.id), `${str(f.name) || '(anonymous)'} ${str(f.filename)}`]));
  const locs = new Map(prof.location.map((l) => [Number(l.id), fns.get(Number(l.line[0]?.functionId ?? 0)) ?? '?']));
  const totals = new Map<string, number>();
  for (const s of prof.sample) {
    const leaf = locs.get(Number(s.locationId[0] ?? 0)) ?? '?';
    totals.set(leaf, (totals.get(leaf) ?? 0) + Number(s.value[s.value.length - 1] ?? 0));
  }
  const types = prof.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`).join(' ');
  const rows = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 50);
  return `${name} profile: ${prof.sample.length} samples [${types}]\n${rows.map(([f, v]) => `${String(v).padStart(14)}  ${f}`).join('\n')}\n`;
}
