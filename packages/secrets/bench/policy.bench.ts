import { performance } from 'node:perf_hooks';
import { createAclAuthorizer } from '../src/core/policy/acl-authorizer.js';
import { PolicyStore } from '../src/core/policy/policy-store.js';
import type { Operation } from '../src/logical/request.js';
import { InmemStorage } from '../src/storage/index.js';

/**
 * ACL check cost for a token with 50 policies of 20 paths each (exact, prefix and `+`
 * rules over ten mounts), over 100,000 requests on varied paths. Prints µs per check for
 * the compiled ACL and through the authorizer (cache lookup included), and a plain
 * `Map.get` loop for scale. Goal: under 20 µs per check.
 */
const POLICIES = 50;
const RULES_PER_POLICY = 20;
const CHECKS = 100_000;
const OPERATIONS: Operation[] = ['read', 'list', 'create', 'update', 'delete'];

/** A small deterministic generator, so every run checks the same requests. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function policyText(i: number): string {
  const blocks: string[] = [];
  for (let j = 0; j < RULES_PER_POLICY; j++) {
    const mount = `kv${(i + j) % 10}`;
    const kind = j % 10;
    const path =
      kind < 4
        ? `${mount}/data/team${i}/app${j}`
        : kind < 7
          ? `${mount}/data/team${i}/shared${j}/*`
          : kind < 9
            ? `${mount}/data/+/team${i}/svc${j}`
            : `${mount}/+/team${i}/cfg${j}*`;
    const caps = j % 3 === 0 ? '"read", "list"' : j % 3 === 1 ? '"create", "update"' : '"read", "delete"';
    blocks.push(`path "${path}" {\n  capabilities = [${caps}]\n}`);
  }
  return blocks.join('\n');
}

/** Request paths that hit each kind of rule, and some that match nothing. */
function requestPaths(count: number, random: () => number): string[] {
  const paths: string[] = [];
  for (let n = 0; n < count; n++) {
    const i = Math.floor(random() * POLICIES);
    const j = Math.floor(random() * RULES_PER_POLICY);
    const mount = `kv${(i + j) % 10}`;
    const shapes = [
      `${mount}/data/team${i}/app${j}`,
      `${mount}/data/team${i}/shared${j}/deep/key${n % 7}`,
      `${mount}/data/env${n % 5}/team${i}/svc${j}`,
      `${mount}/metadata/team${i}/cfg${j}-x/y`,
      `${mount}/data/unknown/path${n}`,
      `other/mount/${n}`,
    ];
    paths.push(shapes[n % shapes.length] as string);
  }
  return paths;
}

function measure(label: string, iterations: number, run: (n: number) => unknown): number {
  for (let n = 0; n < 10_000; n++) run(n);
  const start = performance.now();
  for (let n = 0; n < iterations; n++) run(n);
  const us = ((performance.now() - start) * 1000) / iterations;
  console.log(`${label.padEnd(58)} ${us.toFixed(3)} µs`);
  return us;
}

async function main(): Promise<void> {
  const store = await PolicyStore.open({ storage: new InmemStorage() });
  const names: string[] = [];
  for (let i = 0; i < POLICIES; i++) {
    names.push(`p${i}`);
    await store.write(`p${i}`, policyText(i));
  }
  const acl = await store.acl(names);
  const paths = requestPaths(4096, seeded(42));
  const mask = paths.length - 1;
  let granted = 0;
  const aclUs = measure(`ACL check, ${POLICIES} policies x ${RULES_PER_POLICY} paths`, CHECKS, (n) => {
    if (acl.allowed(OPERATIONS[n % 5] as Operation, paths[n & mask] as string).allowed) granted++;
  });

  const authorizer = createAclAuthorizer(store);
  const authorizeStart = performance.now();
  for (let n = 0; n < CHECKS; n++) {
    const question = { policies: names, operation: OPERATIONS[n % 5] as Operation, path: paths[n & mask] as string };
    await Promise.resolve(authorizer.authorize({ ...question, needsSudo: false })).catch(() => undefined);
  }
  const authorizeUs = ((performance.now() - authorizeStart) * 1000) / CHECKS;
  console.log(`${'  via the authorizer (ACL cache lookup, await, denial)'.padEnd(58)} ${authorizeUs.toFixed(3)} µs`);

  const table = new Map(paths.map((p, n) => [p, n]));
  let sum = 0;
  measure('  baseline: Map.get of the same paths', CHECKS, (n) => {
    sum += table.get(paths[n & mask] as string) ?? 0;
  });
  console.log(`granted ${granted} of ${CHECKS + 10_000} checks (checksum ${sum % 7})`);
  console.log(`policy check: ${aclUs.toFixed(2)} µs/check (goal < 20 µs) ${aclUs < 20 ? 'OK' : 'SLOW'}`);
}

await main();
