import assert from 'node:assert/strict';
import { createCipheriv, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { cryptoRandom, systemClock } from '@ward/base';
import { AesGcmBarrier } from '../src/core/barrier/index.js';
import { createView } from '../src/core/barrier/view.js';
import { createTransitBackend } from '../src/engines/transit/backend.js';
import { testBackend } from '../src/framework/testing.js';
import { InmemStorage } from '../src/storage/index.js';
import {
  best,
  CONNECTIONS,
  DURATION_S,
  type Figures,
  measure,
  ROUNDS,
  rootApi,
  startBaseline,
  startWardDev,
} from './bench-support.js';

/**
 * Transit encrypt and sign throughput (issue 32) beside Node's `crypto` doing the same operation on
 * the same input in the same run: AES-256-GCM encryption (random 96-bit nonce, 128-bit tag) of a
 * 64-byte plaintext, and ed25519 / ECDSA P-256 (SHA-256, DER) signatures of a 64-byte input.
 * Two ratios per operation, both against a one-thread `crypto` loop in this process:
 * - in process: the transit engine's own path (`encrypt/:name`, `sign/:name` through the framework,
 *   key read from a mount view of an unsealed barrier as in the server, base64 in and out, `vault:v1:`
 *   framing), one request after another;
 * - over HTTP: `POST /v1/transit/...` to `bin/ward server -dev` with autocannon (16 connections).
 * For context, the bare `node:http` server's req/s over crypto's ops/s: the most any HTTP server
 * answering one operation per request could reach on this machine.
 */
const IN_PROCESS_S = Number(process.env.BENCH_TRANSIT_LOOP_S ?? Math.min(DURATION_S, 3));
const GOAL = 0.5;
const PLAINTEXT = randomBytes(64);
const INPUT = randomBytes(64);

/** Calls `op` back to back for `seconds` (awaiting each one); operations per second. */
async function loop(seconds: number, op: () => unknown): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let n = 0;
  for (; performance.now() < end; n++) await op();
  return n / seconds;
}

/** Synchronous `crypto` operations, in batches of 100 between clock reads. */
function cryptoLoop(seconds: number, op: () => unknown): number {
  const start = performance.now();
  const end = start + seconds * 1000;
  let n = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) op();
    n += 100;
  }
  return n / ((performance.now() - start) / 1000);
}

interface Workload {
  name: string;
  key: string;
  type: string;
  path: string;
  body: Record<string, string>;
  crypto: () => unknown;
}

function workloads(): Workload[] {
  const aesKey = randomBytes(32);
  const ed = generateKeyPairSync('ed25519').privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  return [
    {
      name: 'encrypt aes256-gcm96',
      key: 'aes',
      type: 'aes256-gcm96',
      path: 'encrypt/aes',
      body: { plaintext: PLAINTEXT.toString('base64') },
      crypto: () => {
        const cipher = createCipheriv('aes-256-gcm', aesKey, randomBytes(12));
        Buffer.concat([cipher.update(PLAINTEXT), cipher.final(), cipher.getAuthTag()]);
      },
    },
    {
      name: 'sign ed25519',
      key: 'ed',
      type: 'ed25519',
      path: 'sign/ed',
      body: { input: INPUT.toString('base64') },
      crypto: () => sign(null, INPUT, ed),
    },
    {
      name: 'sign ecdsa-p256 (sha2-256)',
      key: 'ec',
      type: 'ecdsa-p256',
      path: 'sign/ec',
      body: { input: INPUT.toString('base64') },
      crypto: () => sign('sha256', INPUT, { key: ec, dsaEncoding: 'der' }),
    },
  ];
}

interface Row {
  crypto: number;
  inProcess: number;
  http: Figures;
}

/**
 * The engine's storage as the server gives it: a mount's view of an unsealed AES-GCM barrier over
 * memory, so reads of a hot key take the barrier's decoded entry as they do in `bin/ward`.
 */
async function mountStorage() {
  const barrier = new AesGcmBarrier({ physical: new InmemStorage(), random: cryptoRandom, clock: systemClock });
  const rootKey = cryptoRandom.bytes(32);
  await barrier.initialize(rootKey);
  await barrier.unseal(rootKey);
  return createView(barrier, 'logical/bench-transit/');
}

async function main() {
  const engine = await testBackend(createTransitBackend, {
    clock: systemClock,
    random: cryptoRandom,
    storage: await mountStorage(),
  });
  const ward = await startWardDev();
  const bare = await startBaseline();
  const ops = workloads();
  try {
    assert.equal((await rootApi(ward, 'POST', 'sys/mounts/transit', { type: 'transit' })).status, 204);
    for (const w of ops) {
      await engine.write(`keys/${w.key}`, { type: w.type });
      const created = await rootApi(ward, 'POST', `transit/keys/${w.key}`, { type: w.type });
      assert.ok(created.status < 300, JSON.stringify(created.body));
      const answer = await engine.write(w.path, w.body);
      assert.match(String(answer?.data?.ciphertext ?? answer?.data?.signature), /^vault:v1:/);
    }
    const rounds = new Map(ops.map((w) => [w.name, [] as Row[]]));
    const bareRounds: Figures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRounds.push(await measure('bare node:http', bare, { url: bare.url }));
      for (const w of ops) {
        const crypto = cryptoLoop(IN_PROCESS_S, w.crypto);
        const inProcess = await loop(IN_PROCESS_S, () => engine.write(w.path, w.body));
        const http = await measure(w.name, ward, {
          url: `${ward.url}/v1/transit/${w.path}`,
          method: 'POST',
          headers: { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' },
          body: JSON.stringify(w.body),
        });
        rounds.get(w.name)?.push({ crypto, inProcess, http });
      }
    }
    const bareBest = best(bareRounds);
    console.log(
      `\ntransit bench: crypto and in-process loops ${IN_PROCESS_S} s, HTTP ${CONNECTIONS} connections ${DURATION_S} s, best of ${ROUNDS} interleaved rounds, Node ${process.version}`,
    );
    console.log(
      '| operation | node:crypto ops/s | in process ops/s | ratio | HTTP req/s | ratio | goal | server CPU µs/req | HTTP ceiling (bare node:http / crypto) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const w of ops) {
      const rs = rounds.get(w.name) ?? [];
      const crypto = Math.max(...rs.map((r) => r.crypto));
      const inProcess = Math.max(...rs.map((r) => r.inProcess));
      const http = best(rs.map((r) => r.http));
      const [inRatio, httpRatio, ceiling] = [inProcess / crypto, http.rps / crypto, bareBest.rps / crypto];
      const verdict = `≥ ${GOAL.toFixed(2)} in process ${inRatio >= GOAL ? 'met' : 'missed'}, HTTP ${httpRatio >= GOAL ? 'met' : 'missed'}`;
      console.log(
        `| ${w.name} | ${crypto.toFixed(0)} | ${inProcess.toFixed(0)} | ${inRatio.toFixed(2)} | ${http.rps.toFixed(0)} | ${httpRatio.toFixed(2)} | ${verdict} | ${http.cpuUsPerRequest.toFixed(1)} | ${ceiling.toFixed(2)} |`,
      );
    }
    console.log(
      `(bare node:http answering a constant: ${bareBest.rps.toFixed(0)} req/s; where the ceiling column is below ${GOAL}, no HTTP server doing one operation per request can reach the goal here: the request costs more than the crypto)`,
    );
  } finally {
    await engine.backend.cleanup?.();
    await ward.stop();
    await bare.stop();
  }
}

await main();
