import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer, type TestServerOptions } from '../server/testing.js';

/** The `bin/ward` launcher of this checkout (from `dist/src/cli/`). */
export const WARD_BIN = fileURLToPath(new URL('../../../../../bin/ward', import.meta.url));

/** How one `ward` run ended. */
export interface WardRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `bin/ward args` as a child process with only the given environment (plus PATH),
 * so a developer's own VAULT_* variables cannot leak into a test. `stdin` is written and closed.
 */
export function runWard(args: string[], env: Record<string, string>, stdin = ''): Promise<WardRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WARD_BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** A fresh, empty HOME so `login` writes its token file where the test can see it. */
export function tempHome(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'ward-cli-home-'));
}

/** A test server plus what a CLI test needs to run `ward` against it. */
export interface CliHarness {
  server: TestServer;
  /** VAULT_ADDR of the server, a fresh HOME, and VAULT_TOKEN (root) unless the server is uninitialised. */
  env: Record<string, string>;
  /** Runs `ward args` with `env`. */
  ward(args: string[], stdin?: string): Promise<WardRun>;
  stop(): Promise<void>;
}

/** Starts a test server (options as for `startTestServer`) for `ward` commands to talk to. */
export async function startCliHarness(options: TestServerOptions = {}): Promise<CliHarness> {
  const server = await startTestServer(options);
  const env: Record<string, string> = { VAULT_ADDR: server.url, HOME: await tempHome() };
  if (server.rootToken) env.VAULT_TOKEN = server.rootToken;
  return {
    server,
    env,
    ward: (args, stdin) => runWard(args, env, stdin),
    stop: () => server.stop(),
  };
}
