import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
