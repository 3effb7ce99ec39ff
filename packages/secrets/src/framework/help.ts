import type { Backend } from './backend.js';
import type { FieldSpec } from './fields.js';
import { isAtOrBelow } from './openapi.js';
import type { PathDefinition, PathOperation } from './path.js';

/**
 * The markdown `help` of `?help=1`, from the same declarations that route and validate:
 * the path serving `relativePath` when one does (OpenBao's `pathHelpTemplate`: request,
 * route, synopsis, `## PARAMETERS`, `## DESCRIPTION`), else the backend's overview with
 * the paths at or below `relativePath` (OpenBao's `rootHelpTemplate`).
 * `undefined` when the backend serves nothing there.
 */
export function helpMarkdown(backend: Backend, relativePath: string): string | undefined {
  const exact = relativePath === '' ? undefined : backend.paths.find((def) => def.pattern.match(relativePath));
  if (exact) return pathHelp(exact, relativePath);
  const below = backend.paths.filter((def) => isAtOrBelow(def, relativePath));
  return below.length === 0 ? undefined : backendHelp(backend, below);
}

function backendHelp(backend: Backend, paths: PathDefinition[]): string {
  const lines = ['## DESCRIPTION', '', backend.help.trim(), '', '## PATHS', ''];
  lines.push(
    'The following paths are supported by this backend. To view help for any of them, request it',
    'with `?help=1`. Depending on the policy of your token, you may or may not be able to use them.',
    '',
  );
  const sorted = [...paths].sort((a, b) => (a.spec.pattern < b.spec.pattern ? -1 : 1));
  for (const def of sorted)
    lines.push(`    ${def.pattern.openapiPath}`, `        ${oneLine(def.spec.help.synopsis)}`, '');
  return lines.join('\n').trimEnd();
}

const OPERATION_ORDER: readonly PathOperation[] = ['read', 'list', 'create', 'update', 'patch', 'delete'];

function pathHelp(def: PathDefinition, request: string): string {
  const { fields, operations, help } = def.spec;
  const lines = [
    `Request:        ${request}`,
    `Matching Route: ${def.pattern.openapiPath}`,
    '',
    oneLine(help.synopsis),
    '',
  ];
  const names = Object.keys(fields).sort();
  if (names.length > 0) {
    lines.push(
      '## PARAMETERS',
      '',
      '| Name | Type | In | Required | Default | Description |',
      '|---|---|---|---|---|---|',
    );
    for (const name of names) {
      const f = fields[name];
      if (f) lines.push(fieldRow(name, f));
    }
    lines.push('');
  }
  lines.push('## OPERATIONS', '', '| Operation | Summary |', '|---|---|');
  for (const op of OPERATION_ORDER) {
    const spec = operations[op];
    if (spec) lines.push(`| ${op} | ${cell(spec.summary)} |`);
  }
  lines.push('', '## DESCRIPTION', '', help.description.trim() || '<no description>');
  return lines.join('\n');
}

function fieldRow(name: string, f: FieldSpec<unknown>): string {
  const { type, format, items } = f.openapi;
  const shown = `${type}${items ? ` of ${items.type}` : ''}${format ? ` (${format})` : ''}`;
  const fallback = f.default === undefined ? '' : `\`${JSON.stringify(f.default)}\``;
  const required = f.required ? 'yes' : 'no';
  return `| \`${name}\` | ${shown} | ${f.inPath ? 'path' : 'data'} | ${required} | ${fallback} | ${cell(f.description)} |`;
}

/** A table cell: one line, and a `|` in the text must not end the cell. */
function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

function oneLine(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}
