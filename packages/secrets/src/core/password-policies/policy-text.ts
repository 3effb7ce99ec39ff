import { CodedError, parseHcl } from '@ward/base';

/** One `rule "charset"` block: at least `minChars` characters of the password come from `charset`. */
export interface CharsetRule {
  /** Distinct characters (code points) of the rule's charset, in first-seen order. */
  charset: string[];
  minChars: number;
}

/** A parsed password policy: how long, and which characters in what minimum numbers. */
export interface PasswordPolicy {
  length: number;
  rules: CharsetRule[];
  /** De-duplicated union of every rule's charset: candidates are drawn uniformly from it. */
  alphabet: string[];
}

/** A policy the language refuses; the message is shown after `invalid password policy: `. */
export class PolicyTextError extends CodedError<'password_policy_invalid'> {
  readonly code = 'password_policy_invalid';
}

/** The largest alphabet a policy may draw from (as established: ≤ 256 characters). */
const MAX_ALPHABET = 256;

/**
 * Parses policy text in HCL (`length = 20` and `rule "charset" { charset = "…" min-chars = 1 }`
 * blocks) or its JSON form, and checks it can describe a password at all.
 */
export async function parsePasswordPolicy(text: string): Promise<PasswordPolicy> {
  const doc = await parseDocument(text);
  const length = doc.length;
  if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0) {
    throw new PolicyTextError('length must be > 0');
  }
  const rules = ruleBlocks(doc.rule).map(charsetRule);
  if (rules.length === 0) throw new PolicyTextError('no charset specified');
  const required = rules.reduce((sum, r) => sum + r.minChars, 0);
  if (required > length) {
    throw new PolicyTextError(`specified rules require at least ${required} characters but ${length} is specified`);
  }
  const alphabet = [...new Set(rules.flatMap((r) => r.charset))];
  if (alphabet.length > MAX_ALPHABET) throw new PolicyTextError(`charset must be at most ${MAX_ALPHABET} characters`);
  return { length, rules, alphabet };
}

async function parseDocument(text: string): Promise<Record<string, unknown>> {
  let doc: unknown;
  try {
    // HCL1, as the established server reads password policies (JSON is kept as JSON: its forms are all accepted below).
    doc = text.trim().startsWith('{') ? JSON.parse(text) : parseHcl(text).body;
  } catch (err) {
    throw new PolicyTextError(`unable to parse policy: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new PolicyTextError('policy is not a map');
  return doc as Record<string, unknown>;
}

/**
 * The `rule` blocks as `[type, body]` pairs. HCL gives `{charset: [body, …]}`; hand-written
 * JSON may also give a list of such maps, or a single body instead of a list.
 */
function ruleBlocks(rule: unknown): Array<[string, unknown]> {
  if (rule === undefined) return [];
  const maps = Array.isArray(rule) ? rule : [rule];
  const out: Array<[string, unknown]> = [];
  for (const map of maps) {
    if (typeof map !== 'object' || map === null) throw new PolicyTextError('rule must be a block');
    for (const [type, bodies] of Object.entries(map)) {
      for (const body of Array.isArray(bodies) ? bodies : [bodies]) out.push([type, body]);
    }
  }
  return out;
}

function charsetRule([type, body]: [string, unknown]): CharsetRule {
  if (type !== 'charset') throw new PolicyTextError(`unrecognized rule type ${type}`);
  if (typeof body !== 'object' || body === null) throw new PolicyTextError('rule must be a block');
  const { charset, 'min-chars': minChars = 0 } = body as Record<string, unknown>;
  if (typeof charset !== 'string' || charset === '') throw new PolicyTextError('no charset specified');
  if (typeof minChars !== 'number' || !Number.isInteger(minChars) || minChars < 0) {
    throw new PolicyTextError('min-chars must be a non-negative integer');
  }
  const chars = [...new Set(charset)];
  // Printable: no control, format, line/paragraph separator or unassigned code points.
  if (chars.some((c) => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Cs}]/u.test(c))) {
    throw new PolicyTextError('non-printable character in charset');
  }
  return { charset: chars, minChars };
}
