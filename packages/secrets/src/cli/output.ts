import { CliError, formatDurationShort } from '@ward/base';
import type { Secret, SecretAuth, WrapInfo } from '@ward/secrets-client';
import { stringify as stringifyYaml } from 'yaml';
import { UsageError } from './flags.js';

export type Format = 'table' | 'json' | 'yaml';

/**
 * Everything a command prints goes through here, so `-format=json` and `-field=NAME`
 * work the same way for every command. JSON prints the server's answer as it came.
 */
export interface Output {
  readonly format: Format;
  /** An envelope: its `data` as a key/value table (with `refresh_interval` for a TTL). */
  secret(secret: Secret<object>): void;
  /** A token-issuing answer: token, accessor, duration, policies. */
  auth(secret: Secret): void;
  /** A key list, one per line under a `Keys` header; JSON and YAML print the array of keys alone, as established. */
  keys(keys: string[]): void;
  /** A plain object as a key/value table (status, metadata, init). `json` replaces it in JSON. */
  fields(values: Record<string, unknown>, json?: unknown): void;
  /** Rows under headers (mount lists); `-field` is not meaningful here. */
  rows(headers: string[], rows: unknown[][], json: unknown): void;
  /** A section title, and a key/value table under it when given; only in table format without `-field`. */
  section(title: string, values?: Record<string, unknown>): void;
  /** A line of decoration; only in table format without `-field`. */
  note(text: string): void;
  /** Raw text (policy text, help); JSON prints `json` instead. */
  text(text: string, json: unknown): void;
  /** "Success! …" after a change; printed only in table format. */
  success(message: string): void;
}

export function createOutput(write: (s: string) => void, format: string, field: string | undefined): Output {
  if (format !== 'table' && format !== 'json' && format !== 'yaml') {
    throw new UsageError(`invalid format "${format}": use table, json or yaml`);
  }
  // Whatever JSON would print, YAML prints the same value as YAML.
  const json = (value: unknown) =>
    write(format === 'yaml' ? stringifyYaml(value ?? null) : `${JSON.stringify(value, null, 2)}\n`);
  // `-field` looks in `values`, then in `fallback` (a secret's top-level fields: `-field=lease_id`).
  const pick = (values: Record<string, unknown>, fallback?: Record<string, unknown>) => {
    if (field === undefined) return false;
    const source = Object.hasOwn(values, field) ? values : fallback && Object.hasOwn(fallback, field) ? fallback : null;
    if (!source) throw new CliError(`Field "${field}" not present in secret`, 1);
    const v = source[field];
    write(`${typeof v === 'string' ? v : format === 'table' ? formatValue(v) : JSON.stringify(v)}\n`);
    return true;
  };
  const table = (values: Record<string, unknown>) =>
    write(
      formatTable(
        ['Key', 'Value'],
        Object.entries(values).map(([k, v]) => [k, v]),
      ),
    );
  // A wrapped answer holds no data: what is shown is how to unwrap it.
  const wrapped = (secret: Secret<object>, info: WrapInfo) => {
    const values = wrapFields(info);
    if (pick(values)) return;
    if (format === 'json') return json(secret);
    table(values);
  };
  return {
    format,
    secret(secret) {
      if (secret.wrap_info) return wrapped(secret, secret.wrap_info);
      const top = secret as unknown as Record<string, unknown>;
      // An answer that is not a secret (sys/health, sys/leader) has its fields at the top level.
      const data = (secret.data ?? topLevelFields(top)) as Record<string, unknown>;
      if (pick(data, top)) return;
      if (format !== 'table') return json(secret);
      table({ ...leaseFields(secret), ...data });
      for (const w of secret.warnings ?? []) write(`\nWARNING! ${w}\n`);
    },
    auth(secret) {
      if (secret.wrap_info) return wrapped(secret, secret.wrap_info);
      const a = secret.auth;
      if (!a) throw new CliError('the server returned no auth information', 2);
      const values = authFields(a);
      if (pick(values)) return;
      if (format !== 'table') return json(secret);
      table(values);
    },
    keys(keys) {
      if (field !== undefined) throw new UsageError('-field is not supported for lists');
      if (format !== 'table') return json(keys);
      write(
        formatTable(
          ['Keys'],
          keys.map((k) => [k]),
        ),
      );
    },
    fields(values, raw) {
      if (pick(values)) return;
      if (format !== 'table') return json(raw ?? values);
      table(values);
    },
    rows(headers, rows, raw) {
      if (field !== undefined) throw new UsageError('-field is not supported for this command');
      if (format !== 'table') return json(raw);
      write(formatTable(headers, rows));
    },
    section(title, values) {
      if (format !== 'table' || field !== undefined) return;
      write(`==== ${title} ====\n`);
      if (values) {
        table(values);
        write('\n');
      }
    },
    note(text) {
      if (format === 'table' && field === undefined) write(`${text}\n`);
    },
    text(text, raw) {
      if (format !== 'table') return json(raw);
      write(text.endsWith('\n') ? text : `${text}\n`);
    },
    success(message) {
      if (format === 'table' && field === undefined) write(`Success! ${message}\n`);
    },
  };
}

/** The envelope's own fields, which a secret's table shows as lease rows or not at all. */
const ENVELOPE_FIELDS = new Set([
  'request_id',
  'lease_id',
  'lease_duration',
  'renewable',
  'data',
  'wrap_info',
  'warnings',
  'auth',
  'mount_type',
]);

/** What an answer without `data` holds besides the envelope, as the established CLI's table shows it. */
function topLevelFields(answer: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(answer).filter(([k]) => !ENVELOPE_FIELDS.has(k)));
}

/** The established names of a wrapped answer's fields (`-field=wrapping_token`). */
function wrapFields(w: WrapInfo): Record<string, unknown> {
  return {
    wrapping_token: w.token,
    wrapping_accessor: w.accessor,
    wrapping_token_ttl: formatDurationShort(w.ttl),
    wrapping_token_creation_time: w.creation_time,
    wrapping_token_creation_path: w.creation_path,
    ...(w.wrapped_accessor ? { wrapped_accessor: w.wrapped_accessor } : {}),
  };
}

/** The auth table of the established CLI (`token`, `token_accessor`, …). */
function authFields(a: SecretAuth): Record<string, unknown> {
  return {
    token: a.client_token,
    token_accessor: a.accessor,
    token_duration: a.lease_duration > 0 ? formatDurationShort(a.lease_duration) : '∞',
    token_renewable: a.renewable,
    token_policies: a.token_policies ?? a.policies ?? [],
    identity_policies: a.identity_policies ?? [],
    policies: a.policies ?? [],
    ...Object.fromEntries(Object.entries(a.metadata ?? {}).map(([k, v]) => [`token_meta_${k}`, v])),
  };
}

/** Columns padded to the widest cell, a dashed rule under the headers. */
export function formatTable(headers: string[], rows: unknown[][]): string {
  const cells = [headers, headers.map((h) => '-'.repeat(h.length)), ...rows.map((r) => r.map(formatValue))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return `${cells
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd((widths[i] ?? 0) + 4)))
        .join('')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

/** Values as the established CLI prints them: lists `[a b]`, maps `map[k:v]`, null `n/a`. */
function formatValue(v: unknown): string {
  if (v === null || v === undefined) return 'n/a';
  if (Array.isArray(v)) return `[${v.map(formatValue).join(' ')}]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `map[${entries.map(([k, x]) => `${k}:${formatValue(x)}`).join(' ')}]`;
  }
  return String(v);
}

/**
 * The lease rows of a secret's table, as established: a leased secret (a dynamic credential)
 * shows its lease id, duration and renewability; a secret without a lease (KV) its refresh interval.
 */
function leaseFields(secret: Secret<object>): Record<string, unknown> {
  if (secret.lease_id) {
    return {
      lease_id: secret.lease_id,
      lease_duration: formatDurationShort(secret.lease_duration),
      lease_renewable: secret.renewable,
    };
  }
  return secret.lease_duration > 0 ? { refresh_interval: formatDurationShort(secret.lease_duration) } : {};
}
