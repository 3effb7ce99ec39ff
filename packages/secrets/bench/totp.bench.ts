import assert from 'node:assert/strict';
import type autocannon from 'autocannon';
import {
  best,
  type Figures,
  measure,
  ROUNDS,
  type Running,
  report,
  rootApi,
  startBaseline,
  startWardDev,
} from './bench-support.js';

/**
 * TOTP code validations per second (`POST totp/code/:name`) on a dev server, as a ratio to
 * a bare `node:http` server measured in the same run. Goal: at least 0.5.
 *
 * What is measured. Replay protection refuses a code for 90 s once it has been checked,
 * so repeating one request would measure the 400 refusal, not validation. Every request
 * therefore carries a code never sent before: request n checks key n mod KEYS with code
 * floor(n / KEYS) as six digits. Almost all of them are wrong codes, answered 200
 * `{"valid":false}`, and a wrong code costs the server exactly what a right one does:
 * the key is read and decoded, the replay record is looked up, the HMAC of every step in
 * the skew window is computed and compared in constant time (all of them, whatever
 * matches), and the code is recorded as used. Before measuring, the bench checks that a
 * right code is accepted once and then refused, so the server under test does enforce
 * replay protection. Keys are spread over KEYS names so that the per-key lock (which
 * serialises validations of one key) does not turn the run into a queue on one key.
 */
const KEYS = 64;
const HEADERS = { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' };

async function setUp(ward: Running): Promise<void> {
  assert.equal((await rootApi(ward, 'POST', 'sys/mounts/totp', { type: 'totp' })).status, 204);
  for (let i = 0; i < KEYS; i++) {
    const r = await rootApi(ward, 'POST', `totp/keys/k${i}`, {
      generate: true,
      issuer: 'Bench',
      account_name: `u${i}`,
      exported: false,
    });
    assert.equal(r.status, 204);
  }
  // The replay check is live: a right code passes once, then is refused (on a key of its own,
  // so no code the run sends can collide with it).
  await rootApi(ward, 'POST', 'totp/keys/check', {
    generate: true,
    issuer: 'Bench',
    account_name: 'check',
    exported: false,
  });
  const { code } = (await rootApi(ward, 'GET', 'totp/code/check')).body.data;
  assert.deepEqual((await rootApi(ward, 'POST', 'totp/code/check', { code })).body.data, { valid: true });
  assert.equal((await rootApi(ward, 'POST', 'totp/code/check', { code })).status, 400);
}

/** Requests that each validate a code not sent before in this process (see above). */
function freshCodes(ward: Running, start: number): autocannon.Options {
  let n = start;
  return {
    url: ward.url,
    headers: HEADERS,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: autocannon.Request) => {
          const key = n % KEYS;
          const code = String(Math.floor(n / KEYS) % 1_000_000).padStart(6, '0');
          n++;
          return { ...req, path: `/v1/totp/code/k${key}`, body: JSON.stringify({ code }) };
        },
      },
    ],
  };
}

async function main() {
  const baseline = await startBaseline();
  const ward = await startWardDev();
  try {
    await setUp(ward);
    const rounds: Record<string, Figures[]> = { base: [], validate: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.base?.push(await measure('node:http baseline', baseline, { url: baseline.url }));
      // Each round starts its codes far from the last round's, so no code repeats within 90 s.
      rounds.validate?.push(
        await measure('TOTP code validation', ward, freshCodes(ward, (round + 1) * KEYS * 100_000)),
      );
    }
    const [base, validate] = [rounds.base, rounds.validate].map((r) => best(r ?? []));
    report('totp bench', base as Figures, [validate as Figures], { 'TOTP code validation': 0.5 });
  } finally {
    await Promise.all([baseline.stop(), ward.stop()]);
  }
}

await main();
