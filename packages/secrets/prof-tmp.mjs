import { randomBytes, createCipheriv, sign, generateKeyPairSync } from 'node:crypto';
const base = '/work/wt/leftovers/packages/secrets/dist';
const { cryptoRandom, systemClock } = await import('@ward/base');
const { createTransitBackend } = await import(`${base}/src/engines/transit/backend.js`);
const { testBackend } = await import(`${base}/src/framework/testing.js`);
const engine = await testBackend(createTransitBackend, { clock: systemClock, random: cryptoRandom });
const only = process.argv[2];
const PT = randomBytes(64).toString('base64');
const w = [['aes','aes256-gcm96','encrypt/aes',{plaintext:PT}],['ed','ed25519','sign/ed',{input:PT}],['ec','ecdsa-p256','sign/ec',{input:PT}]];
for (const [k,t] of w) await engine.write(`keys/${k}`, {type:t});
const aesKey = randomBytes(32); const ed = generateKeyPairSync('ed25519').privateKey; const ec = generateKeyPairSync('ec',{namedCurve:'P-256'}).privateKey;
const cr = { aes: () => { const c = createCipheriv('aes-256-gcm', aesKey, randomBytes(12)); Buffer.concat([c.update(Buffer.alloc(64)), c.final(), c.getAuthTag()]); }, ed: () => sign(null, Buffer.alloc(64), ed), ec: () => sign('sha256', Buffer.alloc(64), {key: ec, dsaEncoding:'der'}) };
for (const [k,,path,body] of w) {
  if (only && only !== k) continue;
  let t = performance.now(), n = 0; while (performance.now() - t < 1000) { for (let i=0;i<100;i++) cr[k](); n+=100; } const c = n/((performance.now()-t)/1000);
  t = performance.now(); n = 0; while (performance.now() - t < 1500) { await engine.write(path, body); n++; } const e = n/((performance.now()-t)/1000);
  console.log(k, 'crypto', c.toFixed(0), 'engine', e.toFixed(0), 'ratio', (e/c).toFixed(2));
}
await engine.backend.cleanup?.();
