import { type Clock, type Logger, type Random, randomUuid } from '@ward/base';
import { InternalError, InvalidRequestError } from '../../logical/errors.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { AuditBroker, AuditedRequest } from './audit-broker.js';
import { type AuditTableEntry, type OpenDevice, openDevice } from './audit-device.js';
import { type AuditOutcome, type EntryContext, requestEntry, responseEntry } from './audit-entry.js';
import { hmacHasher } from './audit-hash.js';

/** Where the table lives behind the barrier, as established servers keep it. */
const TABLE_KEY = 'core/audit';
const SALT_BYTES = 32;

export interface AuditDevicesDeps {
  /** Barrier storage: the table holds every device's salt. */
  storage: Storage;
  clock: Clock;
  random: Random;
  logger: Logger;
  /** The id of the namespace at `path` (`''` = root), for entries' `namespace.id`. */
  namespaceId(path: string): string | undefined;
}

/** What the operator gives to enable a device (`POST sys/audit/:path`). */
export interface AuditDeviceInput {
  type: string;
  description: string;
  options: Record<string, string>;
  local: boolean;
}

/** A device as `sys/audit` lists it: never its salt. */
export type AuditDeviceView = Omit<AuditTableEntry, 'uuid' | 'salt'>;

/** The operations `sys/audit*` offers over the enabled devices. */
export interface AuditAdmin {
  list(): AuditDeviceView[];
  /** Refused (400) when `path` overlaps an enabled device's, or the type or options are wrong. */
  enable(path: string, input: AuditDeviceInput): Promise<void>;
  /** Disabling a path with no device does nothing, as established servers answer 204 either way. */
  disable(path: string): Promise<void>;
  /** What the device at `path` writes for `input` (`sys/audit-hash`); 400 when there is no such device. */
  hash(path: string, input: string): string;
}

const normalize = (path: string) => `${path.replace(/^\/+|\/+$/g, '')}/`;

/**
 * The enabled audit devices: their table (loaded at unseal, kept behind the barrier) and the
 * broker the request pipeline writes through. An entry counts as written when at least one
 * device took it; when every device fails, the request fails with 500.
 */
export class AuditDevices implements AuditBroker, AuditAdmin {
  #entries: AuditTableEntry[] = [];
  readonly #devices = new Map<string, OpenDevice>();
  /** Table changes run one at a time, so two enables cannot each write a table without the other. */
  #changes: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: AuditDevicesDeps) {}

  get isEnabled(): boolean {
    return this.#devices.size > 0;
  }

  /** Opens the stored devices. One that cannot open is logged and skipped; if none can, unsealing fails. */
  async load(): Promise<void> {
    await this.close();
    this.#entries = (await getJson<{ entries: AuditTableEntry[] }>(this.deps.storage, TABLE_KEY))?.entries ?? [];
    for (const entry of this.#entries) {
      try {
        this.#devices.set(entry.path, await openDevice(entry, false));
      } catch (err) {
        this.deps.logger.error('failed to open audit device', { path: entry.path, err });
      }
    }
    // Serving requests that no configured device records would defeat the point of auditing.
    if (this.#entries.length > 0 && this.#devices.size === 0) throw new InternalError('failed to setup audit table');
  }

  /** Closes every device (at seal); the table stays in storage. */
  async close(): Promise<void> {
    const devices = [...this.#devices.values()];
    this.#devices.clear();
    this.#entries = [];
    await Promise.allSettled(devices.map((d) => d.sink.close()));
  }

  list(): AuditDeviceView[] {
    return this.#entries.map(({ path, type, description, options, local }) => ({
      path,
      type,
      description,
      options,
      local,
    }));
  }

  enable(rawPath: string, input: AuditDeviceInput): Promise<void> {
    return this.#change(async () => {
      const path = normalize(rawPath);
      if (this.#entries.some((e) => e.path.startsWith(path) || path.startsWith(e.path))) {
        throw new InvalidRequestError('path already in use');
      }
      const entry: AuditTableEntry = {
        path,
        ...input,
        uuid: randomUuid(this.deps.random),
        salt: Buffer.from(this.deps.random.bytes(SALT_BYTES)).toString('hex'),
      };
      const device = await openDevice(entry, true);
      try {
        await this.#save([...this.#entries, entry]);
      } catch (err) {
        await device.sink.close();
        throw err;
      }
      this.#entries.push(entry);
      this.#devices.set(path, device);
      this.deps.logger.info('enabled audit device', { path, type: entry.type });
    });
  }

  disable(rawPath: string): Promise<void> {
    return this.#change(async () => {
      const path = normalize(rawPath);
      if (!this.#entries.some((e) => e.path === path)) return;
      const remaining = this.#entries.filter((e) => e.path !== path);
      // The salt goes with the entry: digests this device wrote can no longer be reproduced.
      await this.#save(remaining);
      this.#entries = remaining;
      const device = this.#devices.get(path);
      this.#devices.delete(path);
      await device?.sink.close();
      this.deps.logger.info('disabled audit device', { path });
    });
  }

  hash(rawPath: string, input: string): string {
    const entry = this.#entries.find((e) => e.path === normalize(rawPath));
    if (!entry) throw new InvalidRequestError('unknown audit backend');
    return hmacHasher(Buffer.from(entry.salt, 'hex'))(input);
  }

  logRequest(entry: AuditedRequest): Promise<void> {
    return this.#write(entry, (format, ctx) => requestEntry(entry, ctx, format));
  }

  logResponse(entry: AuditedRequest, outcome: AuditOutcome): Promise<void> {
    return this.#write(entry, (format, ctx) => responseEntry(entry, outcome, ctx, format));
  }

  async #write(
    audited: AuditedRequest,
    build: (format: OpenDevice['format'], ctx: EntryContext) => Record<string, unknown>,
  ): Promise<void> {
    const devices = [...this.#devices.values()];
    if (devices.length === 0) return;
    const ctx: EntryContext = {
      timeMs: this.deps.clock.now(),
      namespaceId: this.deps.namespaceId(audited.namespacePath) ?? '',
    };
    const results = await Promise.allSettled(
      devices.map(async (d) => d.sink.write(`${d.prefix}${JSON.stringify(build(d.format, ctx))}\n`)),
    );
    let written = 0;
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') written++;
      else this.deps.logger.error('audit device failed to write', { path: devices[i]?.entry.path, err: result.reason });
    });
    if (written === 0) throw new InternalError('no audit backend succeeded in logging the request');
  }

  async #save(entries: AuditTableEntry[]): Promise<void> {
    await putJson(this.deps.storage, TABLE_KEY, { entries });
  }

  #change(fn: () => Promise<void>): Promise<void> {
    const run = this.#changes.then(fn);
    this.#changes = run.catch(() => undefined);
    return run;
  }
}
