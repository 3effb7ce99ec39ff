import { InvalidRequestError } from '../errors.js';
import { parseHcl } from '../hcl/parse.js';

export type Level = 'deny' | 'read' | 'write';

/** The parts of a policy the agent API consults. */
export interface Rules {
  agent?: Level;
  node?: Level;
}

const LEVELS: readonly Level[] = ['deny', 'read', 'write'];

/** Other areas of the established policy language: accepted, and irrelevant to the agent API. */
const OTHER_AREAS = new Set(['namespace', 'host_volume', 'operator', 'quota', 'plugin']);

/**
 * Parses ACL rules in the established HCL form, e.g. `agent { policy = "read" }`.
 * Errors are 400s naming what is wrong.
 */
export async function parseRules(text: string): Promise<Rules> {
  let doc: Record<string, unknown>;
  try {
    doc = await parseHcl('policy.hcl', text);
  } catch (err) {
    throw new InvalidRequestError(`Failed to parse ACL rules: ${(err as Error).message}`);
  }
  const rules: Rules = {};
  for (const [area, value] of Object.entries(doc)) {
    if (OTHER_AREAS.has(area)) continue;
    if (area !== 'agent' && area !== 'node')
      throw new InvalidRequestError(`Failed to parse ACL rules: unknown area ${area}`);
    const block = Array.isArray(value) ? value[0] : value;
    const level = (block as { policy?: unknown } | undefined)?.policy;
    if (!LEVELS.includes(level as Level)) {
      throw new InvalidRequestError(`Failed to parse ACL rules: invalid ${area} policy ${JSON.stringify(level)}`);
    }
    rules[area] = level as Level;
  }
  return rules;
}

/** Combines the rules of several policies: deny wins, otherwise the highest grant. */
export function combineRules(all: Rules[]): Rules {
  const out: Rules = {};
  for (const area of ['agent', 'node'] as const) {
    const levels = all.map((r) => r[area]).filter((l): l is Level => l !== undefined);
    if (levels.includes('deny')) out[area] = 'deny';
    else if (levels.includes('write')) out[area] = 'write';
    else if (levels.includes('read')) out[area] = 'read';
  }
  return out;
}
