import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FetchFunction } from '@ward/secrets-client';
import { startTestServer, type TestServer, type TestServerOptions } from '../server/testing.js';
import type { Runtime } from './command.js';
import { contextFactory } from './context.js';
import { runCli } from './run.js';

/** The `bin/ward` launcher of this checkout (from `dist/src/cli/`). */
export const WARD_BIN = fileURLToPath(new URL('../../../../../bin/ward', import.meta.url));

/** How one `ward` run ended. */
export interface WardRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The standard output of `run`, a `ward args` that must have exited 0 (else the assertion shows its standard error). */
export function expectSuccess(run: WardRun, args: string[]): string {
  assert.equal(run.code, 0, `ward ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
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

/**
 * Runs `ward args` in this process: the same command table, parsing, output and exit status as
 * `bin/ward`, with `env` as the whole environment (nothing of `process.env`), `stdin` as standard
 * input (not a terminal) and standard output and error captured. `fetch` replaces the network,
 * e.g. with `createFetchDouble().fetch` from @ward/secrets-client. What needs a process of its own
 * (signals, a terminal, the launcher, `server`, `proxy`) goes through `runWard`.
 */
export async function runWardInProcess(
  args: string[],
  env: Record<string, string>,
  stdin = '',
  fetch?: FetchFunction,
): Promise<WardRun> {
  const stdout = capture();
  const stderr = capture();
  const runtime: Runtime = {
    env: { ...env },
    argv: [...args],
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(stdin === '' ? [] : [Buffer.from(stdin)]),
  };
  const code = await runCli(args, { runtime, makeContext: contextFactory(runtime, fetch) });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

function capture(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString() };
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
  /** Runs `ward args` with `env` in this process (`runWardInProcess`). */
  ward(args: string[], stdin?: string): Promise<WardRun>;
  /** Runs `bin/ward args` with `env` as a child process (`runWard`): for what needs a process. */
  wardProcess(args: string[], stdin?: string): Promise<WardRun>;
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
    ward: (args, stdin) => runWardInProcess(args, env, stdin),
    wardProcess: (args, stdin) => runWard(args, env, stdin),
    stop: () => server.stop(),
  };
}
