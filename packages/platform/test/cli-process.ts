import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../../../bin/ward-platform', import.meta.url));

/** Runs `bin/ward-platform serve …` and resolves once it prints the address it listens on. */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--listen', '127.0.0.1:0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (\S+)/.exec(output);
      if (m?.[1]) resolve({ child, url: m[1], output: () => output });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening: ${output}`)));
  });
}

/** Resolves with the match once the process has printed something matching `pattern`. */
export function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve) => {
    const check = () => {
      const m = pattern.exec(output());
      if (!m) return;
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      resolve(m);
    };
    // Registered after startCli's own listeners, so `output()` already holds the new chunk; the
    // log is on stderr.
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    check();
  });
}

export function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}
