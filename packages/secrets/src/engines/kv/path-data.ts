import type { Clock } from '@ward/base';
import type { KvV2Data, KvVersionMetadata } from '@ward/secrets-client';
import { definePath, field, type KeyedMutex } from '../../framework/index.js';
import { serializedOnce } from '../../logical/envelope.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { LogicalResponse } from '../../logical/response.js';
import { rfc3339Precise } from '../../logical/time.js';
import { applyMergePatch } from './merge-patch.js';
import { withNewVersion } from './version-rules.js';
import {
  isDeleted,
  type KeyMetadata,
  type KvConfig,
  newMetadata,
  type VersionedStore,
  type VersionMetadata,
} from './versioned-store.js';

export interface KvV2Deps {
  store: VersionedStore;
  locks: KeyedMutex;
  clock: Clock;
}

const fields = {
  path: field.path({ description: 'Location of the secret.' }),
  version: field.int({ description: 'Version to read; 0 or absent reads the latest.', default: 0 }),
  data: field.object({ description: 'The secret: a map of keys to values.' }),
  options: field.object({ description: 'Write options; `cas` makes the write check-and-set.' }),
};

/** `data/*path`: read, write, patch and soft-delete versions of a secret. */
export function pathData(d: KvV2Deps) {
  return definePath({
    pattern: 'data/*path',
    fields,
    existenceCheck: async ({ data }) => (await d.store.frozenMetadata(data.path)) !== undefined,
    operations: {
      read: {
        summary: 'Read the latest or a given version of a secret.',
        handler: async ({ data }) => readVersion(d, data.path, data.version),
      },
      create: {
        summary: 'Write a new version of a secret.',
        handler: ({ data }) =>
          d.locks.run(data.path, async () => {
            if (!data.data) throw new InvalidRequestError('no data provided');
            const config = await d.store.config();
            const meta = (await d.store.frozenMetadata(data.path)) ?? newMetadata(d.clock.nowPrecise());
            checkCas(meta, config, casOption(data.options));
            return writeVersion(d, data.path, meta, config, data.data);
          }),
      },
      patch: {
        summary: 'Merge-patch the latest version into a new version.',
        handler: ({ data }) =>
          d.locks.run(data.path, async () => {
            if (!data.data) throw new InvalidRequestError('no data provided');
            const meta = await d.store.frozenMetadata(data.path);
            if (!meta) throw new NotFoundError('');
            const config = await d.store.config();
            checkCas(meta, config, casOption(data.options));
            const vm = meta.versions[String(meta.current_version)];
            if (!vm) throw new NotFoundError('');
            if (vm.destroyed || isDeleted(vm, d.clock.now())) {
              // As a read does: 404 with the version's metadata, so clients can see why.
              return { status: 404, data: versionView(meta, meta.current_version, vm) };
            }
            const current = (await d.store.versionData(data.path, meta.current_version)) ?? {};
            return writeVersion(d, data.path, meta, config, applyMergePatch(current, data.data));
          }),
      },
      delete: {
        summary: 'Soft-delete the latest version; it can be undeleted.',
        handler: ({ data }) =>
          d.locks.run(data.path, async () => {
            const meta = await d.store.metadata(data.path);
            const latest = meta?.versions[String(meta.current_version)];
            if (!meta || !latest || latest.destroyed || isDeleted(latest, d.clock.now())) return undefined;
            latest.deletion_time = rfc3339Precise(d.clock.nowPrecise());
            await d.store.putMetadata(data.path, meta);
            return undefined;
          }),
      },
    },
    help: {
      synopsis: 'Write, patch, read and delete versions of a secret.',
      description:
        'Each write stores a new version. Reads return the latest version unless `version` is given. ' +
        'A delete is soft: the data stays until destroyed and can be undeleted.',
    },
  });
}

/** `options.cas` as an integer; established servers decode it weakly, so `"2"` is 2. */
function casOption(options: Record<string, unknown> | undefined): number | undefined {
  const cas = options?.cas;
  if (cas === undefined || cas === null) return undefined;
  const n = typeof cas === 'string' && cas.trim() !== '' ? Number(cas) : cas;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw new InvalidRequestError('error parsing check-and-set parameter');
  return n;
}

async function readVersion(d: KvV2Deps, path: string, requested: number): Promise<LogicalResponse> {
  const meta = await d.store.frozenMetadata(path);
  const version = requested || meta?.current_version || 0;
  const vm = meta?.versions[String(version)];
  if (!meta || !vm) throw new NotFoundError('');
  if (vm.destroyed || isDeleted(vm, d.clock.now())) {
    // Established servers answer 404 with the whole envelope, so clients can see why.
    return { status: 404, data: { data: null, metadata: versionView(meta, version, vm) } satisfies KvV2Data };
  }
  const data = (await d.store.frozenVersionData(path, version)) ?? null;
  return { data: liveAnswer(meta, version, data) };
}

/**
 * The last live answer built from each metadata record (frozen and shared while storage holds the
 * same entry, as the version data is): a key read again and again answers the same frozen object,
 * serialized once (`serializedOnce`), until a write changes either entry.
 */
const liveAnswers = new WeakMap<
  Readonly<KeyMetadata>,
  { version: number; data: Readonly<Record<string, unknown>> | null; answer: Record<string, unknown> }
>();

function liveAnswer(meta: Readonly<KeyMetadata>, version: number, data: Readonly<Record<string, unknown>> | null) {
  const last = liveAnswers.get(meta);
  if (last && last.version === version && last.data === data) return last.answer;
  const vm = meta.versions[String(version)] as Readonly<VersionMetadata>;
  // Deeply frozen: `meta`, its versions and `data` are already.
  const answer = serializedOnce(
    Object.freeze({ data, metadata: Object.freeze(versionView(meta, version, vm)) } satisfies KvV2Data),
  );
  liveAnswers.set(meta, { version, data, answer });
  return answer;
}

/** The requested version (0 = the latest) and its metadata as reads show it; 404 when there is no such version. */
export async function findVersion(d: KvV2Deps, path: string, requested: number) {
  const meta = await d.store.frozenMetadata(path);
  const version = requested || meta?.current_version || 0;
  const vm = meta?.versions[String(version)];
  if (!meta || !vm) throw new NotFoundError('');
  return { version, metadata: versionView(meta, version, vm), isLive: !vm.destroyed && !isDeleted(vm, d.clock.now()) };
}

/** One version as data reads and write responses show it. */
function versionView(meta: Readonly<KeyMetadata>, version: number, vm: Readonly<VersionMetadata>): KvVersionMetadata {
  return { ...vm, custom_metadata: meta.custom_metadata, version };
}

/** Check-and-set: required by the mount or the key, and when given it must name the current version. */
function checkCas(meta: Readonly<KeyMetadata>, config: KvConfig, cas: number | undefined): void {
  if (cas === undefined) {
    if (meta.cas_required || config.cas_required) {
      throw new InvalidRequestError('check-and-set parameter required for this call');
    }
    return;
  }
  if (cas !== meta.current_version) {
    throw new InvalidRequestError('check-and-set parameter did not match the current version');
  }
}

/** Stores `secret` as the next version after `meta` (left as it was) and prunes what is over the limit. */
async function writeVersion(
  d: KvV2Deps,
  path: string,
  current: Readonly<KeyMetadata>,
  config: KvConfig,
  secret: Record<string, unknown>,
): Promise<LogicalResponse> {
  const { meta, version, pruned } = withNewVersion(current, config, d.clock.nowPrecise());
  await d.store.writeVersion(path, meta, version, secret, pruned);
  return { data: versionView(meta, version, meta.versions[String(version)] as VersionMetadata) };
}
