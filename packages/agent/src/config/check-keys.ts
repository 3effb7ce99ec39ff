import type { HclBody, HclDocument } from '@ward/base';
import { closest, distance } from 'fastest-levenshtein';
import { BLOCKS } from './config-keys.js';

/** What a config file holds that Ward refuses (errors) or ignores (warnings), `file:line: …` each, in line order. */
export interface KeyProblems {
  errors: string[];
  warnings: string[];
}

interface Problem {
  line: number;
  text: string;
}

/**
 * Checks every key of every known block of `doc` against the established agent configuration:
 * unknown keys are errors naming their line and the nearest known key; established keys Ward
 * does not act on are warnings naming why.
 */
export function checkConfigKeys(file: string, doc: HclDocument): KeyProblems {
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  const visit = (path: string, body: HclBody) => {
    const keys = BLOCKS.get(path);
    if (!keys) return;
    const where = path === '' ? 'at the top level' : `in ${path}`;
    for (const key of Object.keys(body)) {
      const line = doc.lineOf(body, key) ?? 0;
      const reason = keys.inert.get(key);
      if (reason !== undefined) {
        warnings.push({ line, text: `"${key}" ${where} has no effect in Ward: ${reason}` });
      } else if (!keys.known.includes(key)) {
        errors.push({
          line,
          text: `unknown key "${key}" ${where}${nearest(key, [...keys.known, ...keys.inert.keys()])}`,
        });
      } else {
        const child = path === '' ? key : `${path}.${key}`;
        for (const inner of bodiesOf(body[key])) visit(child, inner);
      }
    }
  };
  visit('', doc.body);
  const render = (ps: Problem[]) =>
    ps.sort((a, b) => a.line - b.line).map((p) => `${file}${p.line > 0 ? `:${p.line}` : ''}: ${p.text}`);
  return { errors: render(errors), warnings: render(warnings) };
}

/** The bodies of an unlabelled block (`a { … }` parses to a list of bodies); none for a value. */
function bodiesOf(value: unknown): HclBody[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is HclBody => typeof v === 'object' && v !== null && !Array.isArray(v));
}

/** `; did you mean "x"?` for a key at most two edits from a known one. */
function nearest(key: string, known: readonly string[]): string {
  const best = closest(key, [...known]);
  return best && distance(key, best) <= 2 ? `; did you mean "${best}"?` : '';
}
