import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { InmemStorage } from '../storage/index.js';
import { type Backend, createBackend } from './backend.js';
import { field } from './fields.js';
import { definePath } from './path.js';

/** `packages/secrets/test/fixtures/openapi/`, from `dist/src/<folder>/`. */
const GOLDEN_DIR = fileURLToPath(new URL('../../../test/fixtures/openapi/', import.meta.url));

/**
 * The drift test: `doc` must equal the committed `test/fixtures/openapi/<name>.json`.
 * With `UPDATE_GOLDEN=1` the file is rewritten instead (then review the diff and commit it).
 */
export function assertGolden(name: string, doc: unknown): void {
  const file = `${GOLDEN_DIR}${name}.json`;
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  let golden: string;
  try {
    golden = readFileSync(file, 'utf8');
  } catch {
    assert.fail(`missing golden file ${file}: run the tests with UPDATE_GOLDEN=1 and commit it`);
  }
  assert.deepEqual(JSON.parse(text), JSON.parse(golden), `${name}.json drifted: regenerate with UPDATE_GOLDEN=1`);
  assert.equal(text, golden, `${name}.json drifted (formatting or key order): regenerate with UPDATE_GOLDEN=1`);
}

/**
 * Validates an OpenAPI document against the OpenAPI JSON schema, then checks what a schema
 * cannot: each `{param}` of a path is declared `in: path` and vice versa, `operationId`s are
 * unique, and every `$ref` resolves.
 */
export async function assertValidOpenapi(doc: unknown): Promise<void> {
  const result = await new Validator().validate(structuredClone(doc) as Record<string, unknown>);
  assert.ok(result.valid, `invalid OpenAPI document: ${JSON.stringify(result.errors, null, 2)}`);
  const { paths, components } = doc as { paths: Record<string, PathItem>; components: { schemas: object } };
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const declared = (item.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
    assert.deepEqual(declared.sort(), inTemplate, `path parameters of ${path}`);
    for (const op of [item.get, item.post, item.patch, item.delete]) {
      if (!op) continue;
      assert.ok(!ids.has(op.operationId), `operationId ${op.operationId} repeated`);
      ids.add(op.operationId);
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        const ref = media.schema.$ref.replace('#/components/schemas/', '');
        assert.ok(ref in components.schemas, `${path}: ${ref} not in components.schemas`);
      }
    }
  }
}

interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
}

interface PathItem {
  parameters?: Array<{ name: string; in: string }>;
  get?: Operation;
  post?: Operation;
  patch?: Operation;
  delete?: Operation;
}

const noop = async () => undefined;

/** A TOTP-like engine declared here, so its golden file changes only with the generator. */
export function createToyTotpBackend(): Backend {
  const name = field.path({ description: 'Name of the key.' });
  return createBackend({
    type: 'totp',
    storage: new InmemStorage(),
    help: 'Generates and checks time-based one-time passwords.',
    specialPaths: { root: ['keys/*'], unauthenticated: ['code/*'] },
    paths: [
      definePath({
        pattern: 'keys/',
        fields: {},
        operations: { list: { summary: 'List the keys.', handler: noop } },
        help: { synopsis: 'Manage the keys that generate codes.', description: 'Lists key names.' },
      }),
      definePath({
        pattern: 'keys/:name',
        fields: {
          name,
          key: field.string({ description: 'Shared secret, base32.', required: true, sensitive: true }),
          period: field.durationSeconds({ description: 'Seconds a code is valid.', default: 30 }),
          digits: field.int({ description: 'Digits | length of a code.', default: 6 }),
          exported: field.bool({ description: 'Return the generated key.' }),
          skew: field.ints({ description: 'Periods accepted around now.' }),
        },
        existenceCheck: async () => false,
        operations: {
          read: { summary: 'Read a key.', handler: noop },
          create: { summary: 'Create a key.', handler: noop },
          update: { summary: 'Update a key.', description: 'Only the given fields change.', handler: noop },
          delete: { summary: 'Delete a key.', handler: noop },
        },
        help: { synopsis: 'Manage the keys   that\n generate codes.', description: 'Keys live in storage.' },
      }),
      definePath({
        pattern: 'code/:name',
        fields: { name, code: field.string({ description: 'Code to check.' }) },
        operations: {
          read: { summary: 'Generate a code.', handler: noop },
          update: { summary: 'Check a code.', handler: noop },
        },
        help: { synopsis: 'Generate or check a code.', description: 'Each code is accepted once.' },
      }),
    ],
  });
}
