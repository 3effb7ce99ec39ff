import { InvalidRequestError } from '../../logical/errors.js';

/** The only KV versions there are. */
const KV_VERSIONS = new Set(['1', '2']);

/** A tune that raises a KV mount's version: the backend restarts and upgrades its data in place. */
export interface VersionUpgrade {
  from: number;
  to: number;
  /** What the tune answers, as established servers word it. */
  warning: string;
}

/**
 * What a tune asking for `options.version = requested` does to a mount (`entry`, its table entry): nothing (absent, or the
 * version it has), an upgrade, or a 400 — a version on an engine other than KV, a version other
 * than 1 or 2, or a downgrade (version 2 data has no version 1 form).
 */
export function versionChange(
  entry: { type: string; options: Record<string, string> | null },
  requested: string | undefined,
): VersionUpgrade | undefined {
  if (requested === undefined) return undefined;
  if (entry.type !== 'kv')
    throw new InvalidRequestError(`secrets engine "${entry.type}" does not allow setting a version`);
  if (!KV_VERSIONS.has(requested)) throw new InvalidRequestError(`invalid version provided: ${requested}`);
  const from = Number(entry.options?.version ?? '1');
  const to = Number(requested);
  if (to < from) throw new InvalidRequestError(`cannot downgrade mount from version ${from}`);
  if (to === from) return undefined;
  return {
    from,
    to,
    warning: `Upgrading mount from version ${from} to version ${to}. This mount will be unavailable for a brief period and will resume service shortly.`,
  };
}
