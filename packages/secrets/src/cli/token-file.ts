import { execFile } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, parseHcl } from '@ward/base';

/**
 * Where `login` keeps the token, as the established CLI does: `$HOME/.vault-token` (readable only
 * by its owner), or the external `token_helper` program named in the CLI's configuration file
 * (`$VAULT_CONFIG_PATH`, default `$HOME/.vault`), so a user's existing file or helper keeps working.
 */
export interface TokenFile {
  /** The file, or the helper program, that holds the token. */
  readonly path: string;
  /** The stored token, or undefined when there is none. */
  read(): Promise<string | undefined>;
  save(token: string): Promise<void>;
}

export async function tokenStoreFor(env: NodeJS.ProcessEnv, home: string): Promise<TokenFile> {
  const helper = await tokenHelperIn(env.VAULT_CONFIG_PATH || join(home, '.vault'));
  return helper ? tokenHelper(helper) : tokenFileIn(home);
}

export function tokenFileIn(home: string): TokenFile {
  const path = join(home, '.vault-token');
  return {
    path,
    async read() {
      try {
        return (await readFile(path, 'utf8')).trim() || undefined;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async save(token) {
      await writeFile(path, token, { mode: 0o600 });
      // `mode` only applies when the file is created; an older file keeps its bits otherwise.
      await chmod(path, 0o600);
    },
  };
}

/** `token_helper` of the CLI configuration file, or undefined when there is no file or no key. */
async function tokenHelperIn(configPath: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(configPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let helper: unknown;
  try {
    helper = parseHcl(text).body.token_helper;
  } catch (err) {
    throw new CliError(`${configPath}: ${(err as Error).message}`, 1);
  }
  if (helper === undefined) return undefined;
  if (typeof helper !== 'string' || helper === '') throw new CliError(`${configPath}: token_helper must be a path`, 1);
  return helper;
}

/** The established helper protocol: `helper get` prints the token, `helper store` reads it on stdin. */
function tokenHelper(program: string): TokenFile {
  const run = (verb: string, input?: string) =>
    new Promise<string>((resolve, reject) => {
      const child = execFile(program, [verb], { timeout: 30_000 }, (err, stdout) => {
        if (err) reject(new CliError(`token helper ${program} ${verb} failed: ${err.message.split('\n')[0]}`, 2));
        else resolve(stdout);
      });
      // A helper that exits without reading its input (`get` reads none) closes the pipe; its exit
      // status, not EPIPE, says whether it worked.
      child.stdin?.on('error', () => {});
      child.stdin?.end(input ?? '');
    });
  return {
    path: program,
    read: async () => (await run('get')).trim() || undefined,
    save: async (token) => {
      await run('store', token);
    },
  };
}
