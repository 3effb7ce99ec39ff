import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeClock } from '@ward/base';
import type * as acme from 'acme-client';
import type { TestServer } from '../src/server/testing.js';
import type { FakeDnsServer } from './fakes/dns-server.js';

/**
 * Moves the test server's fake clock past every retry of the failed ACME validations (5 s, 10 s, …
 * 30 s apart, as established), letting each queued retry run before the next step.
 */
export async function runValidationRetries(t: TestServer, steps = 8): Promise<void> {
  for (let i = 0; i < steps; i++) {
    (t.clock as FakeClock).advance(31_000);
    await t.server.core.scheduler.settled();
  }
}

/** The first certificate of a PEM chain: the leaf acme-client downloaded. */
export function leafOf(chain: string): string {
  return chain.split(/(?=-----BEGIN CERTIFICATE-----)/)[0] ?? '';
}

/**
 * Asserts that `openssl verify` accepts `leafPem` under `rootPem` at the test server's time (its
 * clock is fake), both written to `dir` as `root.pem` and `<name>.pem`.
 */
export function assertVerifiesUnderRoot(t: TestServer, dir: string, rootPem: string, leafPem: string, name = 'leaf') {
  writeFileSync(join(dir, 'root.pem'), rootPem);
  writeFileSync(join(dir, `${name}.pem`), leafPem);
  const at = String(Math.floor(t.clock.now() / 1000));
  const verified = spawnSync(
    'openssl',
    ['verify', '-attime', at, '-CAfile', join(dir, 'root.pem'), join(dir, `${name}.pem`)],
    { encoding: 'utf8' },
  );
  assert.match(verified.stdout, new RegExp(`${name}\\.pem: OK`), verified.stderr);
}

/**
 * acme-client `auto` options (all but the CSR) that answer dns-01 through the fake DNS server: the
 * client's own check of the record is skipped, since the system's resolver does not know it.
 */
export function dns01Through(dns: FakeDnsServer): Omit<acme.ClientAutoOptions, 'csr'> {
  return {
    termsOfServiceAgreed: true,
    challengePriority: ['dns-01'],
    skipChallengeVerification: true,
    challengeCreateFn: async (authz, _challenge, keyAuthorization) =>
      dns.addTxt(`_acme-challenge.${authz.identifier.value}`, keyAuthorization),
    challengeRemoveFn: async (authz, _challenge, keyAuthorization) =>
      dns.removeTxt(`_acme-challenge.${authz.identifier.value}`, keyAuthorization),
  };
}
