import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { PathRule } from '../src/core/policy/policy.js';
import { parsePolicy } from '../src/core/policy/policy-parser.js';
import { startTestServer } from '../src/server/testing.js';

// Issue 29: policies written as the established documentation's examples are (HCL1: braces on the
// next line, comments of every kind, one-line blocks, repeated blocks and keys, JSON and its list
// form). Each file's `.expected.json` holds the rules the established parser reads from it.
const DIR = fileURLToPath(new URL('../../test/fixtures/policies/', import.meta.url));
const files = readdirSync(DIR).filter((f) => /\.(hcl|json)$/.test(f) && !f.endsWith('.expected.json'));

/** A rule as written in the corpus: the path with its `*`, capabilities sorted, only what is set. */
function asWritten(rule: PathRule): Record<string, unknown> {
  const out: Record<string, unknown> = {
    path: rule.isPrefix && !rule.hasSegmentWildcards ? `${rule.path}*` : rule.path,
    capabilities: [...rule.capabilities].sort(),
  };
  if (rule.allowedParameters) out.allowed = Object.fromEntries(rule.allowedParameters);
  if (rule.deniedParameters) out.denied = Object.fromEntries(rule.deniedParameters);
  if (rule.requiredParameters.length > 0) out.required = rule.requiredParameters;
  if (rule.minWrappingTtlSeconds) out.min_wrapping_ttl = rule.minWrappingTtlSeconds;
  if (rule.maxWrappingTtlSeconds) out.max_wrapping_ttl = rule.maxWrappingTtlSeconds;
  return out;
}

describe('policy corpus (HCL1 and JSON, issue 29)', () => {
  it('has at least 30 policies', () => assert.ok(files.length >= 30, `${files.length} files`));
  for (const file of files) {
    it(file, async () => {
      const text = readFileSync(`${DIR}${file}`, 'utf8');
      const expected = JSON.parse(readFileSync(`${DIR}${file.replace(/\.(hcl|json)$/, '.expected.json')}`, 'utf8'));
      const policy = await parsePolicy('p', text);
      assert.deepEqual(policy.paths.map(asWritten), expected);
    });
  }
});

describe('sys/policies/acl with HCL1 text (issue 29)', () => {
  it('stores a policy whose block brace stands on the next line, and refuses bad text with its position', async () => {
    const t = await startTestServer();
    try {
      const policy = 'path "auth/*"\n{ capabilities = ["read"] }\n';
      assert.equal((await t.request('PUT', 'sys/policies/acl/admin', { body: { policy } })).status, 204);
      const read = await t.request('GET', 'sys/policies/acl/admin');
      assert.equal(read.body.data.policy, policy);
      const refused = await t.request('PUT', 'sys/policies/acl/bad', {
        body: { policy: 'path "a"\n{ capabilities = ' },
      });
      assert.equal(refused.status, 400);
      assert.match(refused.body.errors[0], /^failed to parse policy: At 2:/);
    } finally {
      await t.stop();
    }
  });
});
