import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** An S3 or Azure Blob emulator from npm, run as a child process on 127.0.0.1. */
export interface Emulator {
  /** The port it listens on (chosen by the system on the first start, kept across restarts). */
  port: number;
  /** Stops it: requests fail with connection refused until `restart`. */
  stop(): Promise<void>;
  /** Starts it again on the same port over the same data directory. */
  restart(): Promise<void>;
}

/** The dev account every Azurite accepts (published by Microsoft; not a secret). */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** `s3rver` storing in `directory`, with `buckets` created. Any access key is accepted. */
export function startS3rver(directory: string, buckets: string[]): Promise<Emulator> {
  const bin = join(dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js');
  return startEmulator(
    (port) =>
      [bin, '-d', directory, '-a', '127.0.0.1', '-p', String(port), '--silent'].concat(
        buckets.flatMap((b) => ['--configure-bucket', b]),
      ),
    /S3rver listening on 127\.0\.0\.1:(\d+)/,
  );
}

/**
 * Azurite's blob service storing in `directory`, telemetry off. The newest Azurite needs Node 22, so
 * Node 20 gets one that predates the SDK's API version: the version check is skipped.
 */
export function startAzurite(directory: string): Promise<Emulator> {
  const bin = join(dirname(require.resolve('azurite/package.json')), 'dist', 'src', 'blob', 'main.js');
  return startEmulator(
    (port) => [
      bin,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      String(port),
      '--location',
      directory,
      '--silent',
      '--disableTelemetry',
      '--skipApiVersionCheck',
    ],
    /successfully listens on http:\/\/127\.0\.0\.1:(\d+)/,
  );
}

async function startEmulator(args: (port: number) => string[], listening: RegExp): Promise<Emulator> {
  let child = await spawnUntil(args(0), listening);
  const emulator: Emulator = {
    port: child.port,
    async stop() {
      await stopChild(child.process);
    },
    async restart() {
      child = await spawnUntil(args(emulator.port), listening);
    },
  };
  return emulator;
}

function spawnUntil(args: string[], listening: RegExp): Promise<{ process: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = output.match(listening);
      if (m) {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        // Keep draining, so a chatty emulator never blocks on a full pipe.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({ process: child, port: Number(m[1]) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`emulator exited (${code}) before listening:\n${output}`)));
  });
}

/** SIGTERM, then SIGKILL if it lingers (Azurite may not exit on the first SIGTERM). */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}
