import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from './flags.js';

/** ssh's options that take no value (`-4`, `-A`, `-t` …): the word after one of them is not its value. */
const SINGLE_OPTIONS = new Set([...'46ACGKMNTVXYafgknqstvxy']);

/** Who and where, read from the ssh arguments as the established CLI reads them. */
export interface SshTarget {
  hostname: string;
  /** From `user@host` or `-o User=…`; empty when not given. */
  username: string;
  /** From `-p PORT` or `-o Port=…`; empty when not given. */
  port: string;
}

/** The first word that is not an option or an option's value is `[user@]host`; `-p` and `-o User=|Port=` before the command count. */
export function parseSshTarget(args: readonly string[]): SshTarget {
  let hostname = '';
  let username = '';
  let port = '';
  let pending = '';
  for (const arg of args) {
    const option = pending;
    pending = '';
    if (option === '-p') {
      port = arg;
      continue;
    }
    if (option === '-o') {
      const [key = '', ...rest] = arg.split('=');
      if (key === 'User' && username === '') username = rest.join(' ');
      if (key === 'Port' && port === '') port = rest.join(' ');
      continue;
    }
    if (option !== '') continue;
    if (arg.startsWith('-')) {
      if (!SINGLE_OPTIONS.has(arg[1] ?? '')) pending = arg;
      continue;
    }
    // Options after the host still count (`host -p 2222`); the next plain word starts the command.
    if (hostname !== '') break;
    const at = arg.indexOf('@');
    if (at === -1) hostname = arg;
    else [username, hostname] = [arg.slice(0, at), arg.slice(at + 1)];
  }
  if (hostname === '') throw new UsageError(`no hostname in the ssh command "${args.join(' ')}"`);
  return { hostname, username, port };
}

/** The key pair `-mode=ca` signs: as given, the other half by its name, or the first of ~/.ssh/id_{ed25519,ecdsa,rsa}. */
export async function findKeyPair(
  home: string,
  publicPath: string | undefined,
  privatePath: string | undefined,
): Promise<{ publicPath: string; privatePath: string }> {
  let pub = publicPath ? expandHome(publicPath, home) : '';
  let priv = privatePath ? expandHome(privatePath, home) : '';
  if (!pub && !priv && home) {
    for (const name of ['id_ed25519', 'id_ecdsa', 'id_rsa']) {
      const path = join(home, '.ssh', name);
      if ((await exists(path)) && (await exists(`${path}.pub`))) {
        [priv, pub] = [path, `${path}.pub`];
        break;
      }
    }
  } else if (priv && !pub && (await exists(`${priv}.pub`))) {
    pub = `${priv}.pub`;
  } else if (pub && !priv && pub.endsWith('.pub') && (await exists(pub.slice(0, -4)))) {
    priv = pub.slice(0, -4);
  }
  if (!pub) throw new UsageError('could not find an SSH public key; give it with -public-key-path');
  if (!priv) throw new UsageError('could not find an SSH private key; give it with -private-key-path');
  return { publicPath: pub, privatePath: priv };
}

/** `~/…` as the established CLI expands it. */
export function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
