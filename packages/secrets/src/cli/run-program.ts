import { spawn } from 'node:child_process';
import type { Runtime } from './command.js';
import { CliError } from './command.js';

/**
 * Runs `program args` (found on the run's PATH) with the run's environment plus `extraEnv`, its
 * standard streams those of the run (the terminal itself when they are the process's own, so
 * `ssh` can ask and draw), and resolves with its exit status (128 + signal number when killed).
 */
export function runProgram(
  rt: Runtime,
  program: string,
  args: readonly string[],
  extraEnv: Record<string, string> = {},
): Promise<number> {
  const own = rt.stdin === process.stdin && rt.stdout === process.stdout && rt.stderr === process.stderr;
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args], {
      env: { ...rt.env, ...extraEnv },
      stdio: own ? 'inherit' : ['pipe', 'pipe', 'pipe'],
    });
    if (!own) {
      child.stdout?.on('data', (d: Buffer) => rt.stdout.write(d));
      child.stderr?.on('data', (d: Buffer) => rt.stderr.write(d));
      rt.stdin.pipe(child.stdin as NodeJS.WritableStream);
    }
    child.on('error', (err) => reject(new CliError(`failed to run ${program}: ${err.message}`, 2)));
    child.on('close', (code, signal) => resolve(code ?? 128 + signalNumber(signal)));
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === 'SIGKILL' ? 9 : signal === 'SIGINT' ? 2 : 15;
}
