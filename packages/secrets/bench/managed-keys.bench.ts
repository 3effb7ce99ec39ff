import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pkcs11js from 'pkcs11js';
import { createSoftHsm, SOFTHSM_LIBRARY } from '../src/sys/kms/softhsm.testing.js';
import { DURATION_S, measure, ROUNDS, type Running, startWardWithConfig } from './bench-support.js';

/**
 * Signatures per second through `transit/sign` with a SoftHSM RSA-2048 managed key, as a ratio
 * to signing with pkcs11js directly in this process, same token, same key, same mechanism
 * (CKM_RSA_PKCS over a SHA-256 DigestInfo) and the same number of sessions (`max_parallel`,
 * one per core). Goal: at least 0.7. Both sides keep every session busy: autocannon with 16
 * connections, the direct loop with 16 signers sharing the sessions.
 */
const SESSIONS = 2;
const SIGNERS = 16;
const DIGEST_INFO_SHA256 = Buffer.from('3031300d060960864801650304020105000420', 'hex');
const INPUT = Buffer.from('managed key bench').toString('base64');

async function api(ward: Running, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${ward.url}/v1/${path}`, {
    method,
    headers: { 'X-Vault-Token': token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Initialises and unseals the server, then mounts transit on a managed key in the token. */
async function setUp(ward: Running, slot: string, pin: string): Promise<string> {
  const init = await api(ward, '', 'POST', 'sys/init', { secret_shares: 1, secret_threshold: 1 });
  await api(ward, '', 'POST', 'sys/unseal', { key: init.keys_base64[0] });
  const token = init.root_token as string;
  await api(ward, token, 'POST', 'sys/managed-keys/pkcs11/bench', {
    library: 'softhsm',
    slot,
    pin,
    key_label: 'bench-rsa',
    mechanism: '0x0001',
    key_bits: 2048,
    allow_generate_key: true,
    max_parallel: SESSIONS,
  });
  await api(ward, token, 'POST', 'sys/managed-keys/pkcs11/bench/test/sign', {});
  await api(ward, token, 'POST', 'sys/mounts/transit', { type: 'transit', config: { allowed_managed_keys: 'bench' } });
  await api(ward, token, 'POST', 'transit/keys/bench', { managed_key_name: 'bench' });
  return token;
}

/** The same signatures made with pkcs11js in this process: signatures per second over DURATION_S. */
async function signDirectly(slotNumber: string, pin: string): Promise<number> {
  const m = new pkcs11js.PKCS11();
  m.load(SOFTHSM_LIBRARY);
  m.C_Initialize({ flags: pkcs11js.CKF_OS_LOCKING_OK });
  try {
    const slot = m.C_GetSlotList(true).find((s) => s.readBigUInt64LE(0) === BigInt(slotNumber)) as Buffer;
    const sessions = Array.from({ length: SESSIONS }, () => m.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION));
    m.C_Login(sessions[0] as Buffer, pkcs11js.CKU_USER, pin);
    m.C_FindObjectsInit(sessions[0] as Buffer, [
      { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
      { type: pkcs11js.CKA_LABEL, value: 'bench-rsa' },
    ]);
    const [key] = m.C_FindObjects(sessions[0] as Buffer, 1);
    m.C_FindObjectsFinal(sessions[0] as Buffer);
    assert.ok(key, 'the bench key exists');
    const idle = [...sessions];
    const waiting: Array<(s: Buffer) => void> = [];
    const until = Date.now() + DURATION_S * 1000;
    let count = 0;
    const signer = async () => {
      while (Date.now() < until) {
        const session = idle.pop() ?? (await new Promise<Buffer>((r) => waiting.push(r)));
        // Hashing the request body is part of the work, as the server does it too.
        const digest = createHash('sha256').update(Buffer.from(INPUT, 'base64')).digest();
        m.C_SignInit(session, { mechanism: pkcs11js.CKM_RSA_PKCS }, key);
        const input = Buffer.concat([DIGEST_INFO_SHA256, digest]);
        await m.C_SignAsync(session, input, Buffer.alloc(256));
        input.fill(0); // keeps `input` reachable while the worker thread reads it (see pkcs11.ts)
        count++;
        const next = waiting.shift();
        if (next) next(session);
        else idle.push(session);
      }
    };
    await Promise.all(Array.from({ length: SIGNERS }, signer));
    for (const s of sessions) m.C_CloseSession(s);
    return count / DURATION_S;
  } finally {
    m.C_Finalize();
  }
}

async function main() {
  const hsm = createSoftHsm();
  const { slot, pin } = hsm.addToken('bench', '1234');
  const config = join(process.env.SOFTHSM2_CONF ?? '', '..', 'ward.hcl');
  writeFileSync(
    config,
    `storage "inmem" {}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n` +
      `kms_library "pkcs11" {\n  name = "softhsm"\n  library = "${SOFTHSM_LIBRARY}"\n}\n`,
  );
  const ward = await startWardWithConfig(config);
  try {
    const token = await setUp(ward, slot, pin);
    const direct: number[] = [];
    const through: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      direct.push(await signDirectly(slot, pin));
      const figures = await measure('transit/sign', ward, {
        url: `${ward.url}/v1/transit/sign/bench`,
        method: 'POST',
        headers: { 'X-Vault-Token': token },
        body: JSON.stringify({ input: INPUT, signature_algorithm: 'pkcs1v15' }),
      });
      through.push(figures.rps);
      console.log(
        `  round ${round + 1}: direct ${direct[round]?.toFixed(0)}/s, transit ${figures.rps.toFixed(0)}/s, server CPU ${figures.cpuUsPerRequest.toFixed(0)} µs/signature, p99 ${figures.p99Ms} ms`,
      );
    }
    const bestDirect = Math.max(...direct);
    const bestThrough = Math.max(...through);
    const ratio = bestThrough / bestDirect;
    console.log('managed-keys bench (SoftHSM RSA-2048, CKM_RSA_PKCS, SHA-256, %d sessions)', SESSIONS);
    console.log(`  pkcs11js directly         ${bestDirect.toFixed(0).padStart(7)} signatures/s`);
    console.log(`  transit/sign over HTTP    ${bestThrough.toFixed(0).padStart(7)} signatures/s`);
    console.log(`  ratio ${ratio.toFixed(2)} (goal >= 0.70: ${ratio >= 0.7 ? 'met' : 'MISSED'})`);
  } finally {
    await ward.stop();
    hsm.remove();
  }
}

await main();
