import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The hvac client tests run a Python script (test/fixtures/clients/) that records every call it
// makes as a step and prints them as one JSON object; the assertions live in the test.

/** Debian's interpreter: a python3 earlier on PATH (pyenv, venv) would not see python3-hvac. */
export const PYTHON = '/usr/bin/python3';

export type Step = { ok: unknown } | { error: string; errors: string[] };

// Async on purpose: a server in this process must keep answering while the script runs.
const run = promisify(execFile);

/** What a fixture script saw: each step's value or hvac exception, by name. */
export class HvacSteps {
  constructor(readonly seen: Record<string, Step>) {}

  /** The value of a step that must have succeeded. */
  ok<T>(name: string): T {
    const step = this.seen[name];
    assert.ok(step && 'ok' in step, `${name}: ${JSON.stringify(step)}`);
    return step.ok as T;
  }

  /** The hvac exception of a step that must have failed. */
  failed(name: string): { error: string; errors: string[] } {
    const step = this.seen[name];
    assert.ok(step && 'error' in step, `${name} should have failed: ${JSON.stringify(step)}`);
    return step;
  }
}

/** Runs `test/fixtures/clients/<script>` with `args` and returns its steps. */
export async function runHvacScript(script: string, args: string[], timeoutMs = 60_000): Promise<HvacSteps> {
  const path = fileURLToPath(new URL(`../../test/fixtures/clients/${script}`, import.meta.url));
  const { stdout } = await run(PYTHON, [path, ...args], { timeout: timeoutMs });
  return new HvacSteps(JSON.parse(stdout) as Record<string, Step>);
}
