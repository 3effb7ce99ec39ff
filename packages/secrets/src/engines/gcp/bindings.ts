import { HclSyntaxError, parseHcl } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Bindings } from './gcp-store.js';
import { parseIamResource } from './iam-resources.js';

function decoded(raw: string): string {
  const trimmed = raw.trim();
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) && trimmed.length % 4 === 0) {
    const text = Buffer.from(trimmed, 'base64').toString('utf8');
    if (/resource/.test(text)) return text;
  }
  return raw;
}

/**
 * `bindings` as the established engine takes them: HCL or JSON (raw or base64) of
 * `resource "<name>" { roles = ["roles/…"] }` blocks. Each resource once, its roles deduplicated.
 */
export function parseBindings(raw: string): Bindings {
  let body: Record<string, unknown>;
  try {
    body = parseHcl(decoded(raw)).body;
  } catch (err) {
    if (err instanceof HclSyntaxError) throw new InvalidRequestError(`unable to parse bindings: ${err.message}`);
    throw err;
  }
  const keys = Object.keys(body);
  if (keys.some((k) => k !== 'resource'))
    throw new InvalidRequestError(
      'unable to parse bindings: top-level items must be resource "<name>" { roles = [...] }',
    );
  const resources = (body.resource ?? {}) as Record<string, unknown>;
  const out = new Map<string, Set<string>>();
  for (const name of Object.keys(resources)) {
    parseIamResource(name);
    const blocks = resources[name];
    const roles = out.get(name) ?? new Set<string>();
    for (const block of Array.isArray(blocks) ? blocks : [blocks]) {
      const list = (block as Record<string, unknown> | undefined)?.roles;
      if (
        !Array.isArray(list) ||
        list.some(
          (r) =>
            typeof r !== 'string' || !/^(roles|projects\/[^/]+\/roles|organizations\/[^/]+\/roles)\/[\w.]+$/.test(r),
        )
      )
        throw new InvalidRequestError(`unable to parse bindings: resource "${name}" needs roles = ["roles/…"]`);
      for (const role of list as string[]) roles.add(role);
    }
    out.set(name, roles);
  }
  if (out.size === 0) throw new InvalidRequestError('unable to parse any bindings from given bindings HCL');
  return [...out].map(([resource, roles]) => [resource, [...roles]]);
}

/** The bindings as read back: resource → roles. */
export const bindingsOutput = (b: Bindings) => Object.fromEntries(b);
