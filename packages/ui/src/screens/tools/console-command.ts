import { type Api, ApiError } from '../../api/api.js';

/** One parsed console line: `write secret/data/app data=@x -field=version` → verb, path, pairs, flags. */
export interface ConsoleCommand {
  verb: 'read' | 'write' | 'list' | 'delete' | 'help' | 'clear';
  path: string;
  pairs: Map<string, string>;
  flags: Map<string, string>;
}

export const CONSOLE_HELP = `Commands, as the established UI's console takes them:
  read <path> [-field=<name>] [-format=json]
  write <path> [key=value ...] [-field=<name>] [-format=json]
  list <path>
  delete <path>
  clear     empties the output
  help      this text
Values with spaces go in quotes: write secret/app note="two words".`;

const VERBS = new Set(['read', 'write', 'list', 'delete', 'help', 'clear']);

/** Splits a line into words, honouring single and double quotes and backslash escapes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (quote) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error('a quote is not closed');
  if (inWord) words.push(word);
  return words;
}

export function parseCommand(line: string): ConsoleCommand {
  const [verb = '', ...rest] = splitWords(line.trim());
  if (!VERBS.has(verb)) throw new Error(`unknown command "${verb}": try help`);
  const flags = new Map<string, string>();
  const pairs = new Map<string, string>();
  const positional: string[] = [];
  for (const word of rest) {
    const flag = /^--?([a-z][a-z0-9-]*)(?:=(.*))?$/i.exec(word);
    if (flag) flags.set(flag[1] as string, flag[2] ?? 'true');
    else if (positional.length > 0 && word.includes('=')) {
      const at = word.indexOf('=');
      pairs.set(word.slice(0, at), word.slice(at + 1));
    } else positional.push(word);
  }
  const cmd = {
    verb: verb as ConsoleCommand['verb'],
    path: (positional[0] ?? '').replace(/^\/+|\/+$/g, ''),
    pairs,
    flags,
  };
  if (positional.length > 1) throw new Error(`${verb} takes one path; key=value pairs follow it`);
  if (cmd.verb !== 'help' && cmd.verb !== 'clear' && !cmd.path) throw new Error(`${verb} needs a path: ${verb} <path>`);
  if (cmd.verb !== 'write' && pairs.size > 0) throw new Error(`${verb} takes no key=value pairs`);
  return cmd;
}

/** Runs a command through the API and renders its answer as the CLI would (table of keys, or JSON). */
export async function runCommand(api: Api, cmd: ConsoleCommand): Promise<string> {
  switch (cmd.verb) {
    case 'help':
      return CONSOLE_HELP;
    case 'clear':
      return '';
    case 'list': {
      const keys = await api.list(cmd.path);
      return keys.length > 0 ? ['Keys', '----', ...keys].join('\n') : `No entries found at ${cmd.path}`;
    }
    case 'delete':
      await api.delete(cmd.path);
      return `Success! Data deleted (if it existed) at: ${cmd.path}`;
    case 'read': {
      const res = await api.request('GET', cmd.path).catch((err: unknown) => {
        // A 404 without errors is "nothing there", as the CLI says it; one with errors (no such path) is shown.
        if (err instanceof ApiError && err.status === 404 && err.errors.length === 0) return undefined;
        throw err;
      });
      if (!res) return `No value found at ${cmd.path}`;
      return render(res as unknown as Record<string, unknown>, cmd);
    }
    case 'write': {
      const res = await api.write(cmd.path, Object.fromEntries(cmd.pairs));
      return res ? render(res as unknown as Record<string, unknown>, cmd) : `Success! Data written to: ${cmd.path}`;
    }
  }
}

function render(res: Record<string, unknown>, cmd: ConsoleCommand): string {
  const data = (res.data ?? res.auth ?? {}) as Record<string, unknown>;
  const field = cmd.flags.get('field');
  if (field !== undefined) {
    if (!Object.hasOwn(data, field)) throw new Error(`field "${field}" not present in secret`);
    return text(data[field]);
  }
  if (cmd.flags.get('format') === 'json') return JSON.stringify(res, null, 2);
  const rows = Object.entries(data).sort(([a], [b]) => a.localeCompare(b));
  if (typeof res.lease_duration === 'number' && res.lease_duration > 0)
    rows.unshift(['lease_duration', res.lease_duration]);
  if (rows.length === 0) return 'Success!';
  const width = Math.max(3, ...rows.map(([k]) => k.length));
  return [
    `${'Key'.padEnd(width)}    Value`,
    `${'---'.padEnd(width)}    -----`,
    ...rows.map(([k, v]) => `${k.padEnd(width)}    ${text(v)}`),
  ].join('\n');
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
