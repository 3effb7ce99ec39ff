import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempHome } from '../src/cli/testing.js';
import { request, type TestResponse } from '../src/server/testing.js';

/** The `bin/ward` executable of this checkout. */
export const WARD_BIN = fileURLToPath(new URL('../../../../bin/ward', import.meta.url));

export interface WardProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output (waits up to `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
}

/**
 * Starts `bin/ward` with `args` as a user does (its first lines pick the Node.js and the V8 flags
 * it runs with, then `exec` it, so the child's pid is the server's); output is collected for
 * `waitFor`. `launcher` runs it through another program (`['unshare', '-m', …]`): its words come
 * first, then bin/ward.
 */
export function startWard(args: string[], env: NodeJS.ProcessEnv = {}, launcher: string[] = []): WardProcess {
  const [program = WARD_BIN, ...programArgs] = [...launcher, WARD_BIN];
  const child = spawn(program, [...programArgs, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (d: Buffer) => {
    text += d.toString();
    for (const w of waiters) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1));
  });
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = text.match(pattern);
          if (!m) return;
          cleanup();
          resolve(m);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${text}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        exited.then(() => {
          check();
          if (waiters.has(check)) {
            cleanup();
            reject(new Error(`ward exited before printing ${pattern}; output:\n${text}`));
          }
        });
        check();
      });
    },
  };
}

/** A started `ward server -dev`, with the CLI environment that reaches it. */
export interface DevWard {
  ward: WardProcess;
  url: string;
  /** `VAULT_ADDR`, `VAULT_TOKEN` (the root token) and a HOME of its own, for `runWard`. */
  env: Record<string, string>;
  /** One request to `/v1/<path>` as `token` (the root token unless given; `null` sends none). */
  call(method: string, path: string, body?: unknown, token?: string | null): Promise<TestResponse>;
  /** The body of a `call` that must answer 2xx: the assertion names the request and shows the body. */
  ok(method: string, path: string, body?: unknown, token?: string | null): Promise<TestResponse['body']>;
}

/**
 * Starts `ward server -dev` on a free port with `rootToken` (plus `flags`, and `env` over this
 * process's) and waits until it has started; a server that fails to start is killed before the error is thrown.
 */
export async function startDevWard(
  rootToken: string,
  flags: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<DevWard> {
  const ward = startWard(
    ['server', '-dev', `-dev-root-token-id=${rootToken}`, '-dev-listen-address=127.0.0.1:0', ...flags],
    env,
  );
  try {
    const [, url = ''] = await ward.waitFor(/export VAULT_ADDR='([^']+)'/);
    await ward.waitFor(/Ward server started!/);
    const call = (method: string, path: string, body?: unknown, token: string | null = rootToken) =>
      request(url, method, path, { body, token });
    const ok = async (method: string, path: string, body?: unknown, token: string | null = rootToken) => {
      const res = await call(method, path, body, token);
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    return { ward, url, env: { VAULT_ADDR: url, VAULT_TOKEN: rootToken, HOME: await tempHome() }, call, ok };
  } catch (err) {
    ward.child.kill('SIGKILL');
    throw err;
  }
}

/** A started `ward server -config` on SQLite storage, initialised with one key share and unsealed. */
export interface SqliteWard {
  ward: WardProcess;
  url: string;
  rootToken: string;
  unsealKey: string;
  /** The SQLite file. */
  databasePath: string;
}

/** Configuration text added to what `startSqliteWard` writes. */
export interface SqliteWardExtra {
  /** Lines at the top level of the file. */
  topLevel?: string;
  /** Lines inside the `listener "tcp"` block. */
  listener?: string;
}

/**
 * Starts `ward server` on a SQLite file in `dir` (made when missing; durable writes: each acknowledged write is on
 * disk), initialises it with one key share over HTTP and unseals it.
 */
export async function startSqliteWard(dir: string, extra: SqliteWardExtra = {}): Promise<SqliteWard> {
  await mkdir(dir, { recursive: true });
  const databasePath = join(dir, 'ward.db');
  const config = join(dir, 'ward.hcl');
  await writeFile(
    config,
    `storage "sqlite" {\n  path = "${databasePath}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n${extra.listener ?? ''}\n}\n${extra.topLevel ?? ''}\n`,
  );
  const ward = startWard(['server', `-config=${config}`]);
  try {
    const [, url = ''] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
    const init = await request(url, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
    const [unsealKey = ''] = init.body.keys_base64 ?? [];
    const unseal = await request(url, 'PUT', 'sys/unseal', { body: { key: unsealKey } });
    if (unseal.body?.sealed !== false) throw new Error(`not unsealed: ${JSON.stringify(unseal.body)}`);
    return { ward, url, rootToken: init.body.root_token, unsealKey, databasePath };
  } catch (err) {
    ward.child.kill('SIGKILL');
    throw err;
  }
}

/** A `ward login -method=oidc` process that has printed the provider's URL and waits for the callback. */
export interface OidcCliLogin {
  /** The provider's authorization URL it printed. */
  authUrl: string;
  /** Its exit code, once it ends. */
  exited: Promise<number>;
  /** What it has written to stderr so far. */
  stderr(): string;
  /** The token it saved in its own home (`~/.vault-token`). */
  savedToken(): Promise<string>;
}

/**
 * Runs `ward login -method=oidc <args> port=<port> skip_browser=true` against `vaultAddr` (with a
 * home of its own and no other environment than PATH) until it prints the provider's URL.
 */
export async function startOidcCliLogin(vaultAddr: string, port: number, args: string[] = []): Promise<OidcCliLogin> {
  const home = await tempHome();
  const child = spawn(
    process.execPath,
    [WARD_BIN, 'login', '-method=oidc', ...args, `port=${port}`, 'skip_browser=true'],
    { env: { PATH: process.env.PATH ?? '', VAULT_ADDR: vaultAddr, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const authUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(stdout);
      if (match?.[1] && stdout.includes('Waiting for OIDC authentication')) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`ward exited ${code}: ${stdout} ${stderr}`)));
  });
  return {
    authUrl,
    exited,
    stderr: () => stderr,
    savedToken: async () => (await readFile(join(home, '.vault-token'), 'utf8')).trim(),
  };
}
