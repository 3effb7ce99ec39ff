import type { Api } from '../../api/api.js';

/** One parameter of a path, as the server's own OpenAPI (`?help=1`) describes it. */
export interface SchemaField {
  name: string;
  kind: 'string' | 'boolean' | 'integer' | 'array' | 'object';
  description: string;
  /** The values an enum takes; empty: any. */
  values: readonly string[];
  /**
   * A secret the server takes but never reads back (the server's OpenAPI says so, from the field's
   * declaration, the one source): a password input, sent only when typed.
   */
  isWriteOnly: boolean;
  /** PEM and JSON: a text area. */
  isMultiline: boolean;
  /** `token_*`: how issued tokens are made, shown apart. */
  isTokenField: boolean;
}

interface OpenApiProperty {
  type?: string;
  format?: string;
  description?: string;
  enum?: unknown[];
  /** The server's mark of a secret it never reads back (its field declared `sensitive`). */
  'x-vault-displayAttrs'?: { sensitive?: boolean };
}

interface OpenApiDocument {
  paths?: Record<
    string,
    { description?: string; post?: { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } } }
  >;
  components?: { schemas?: Record<string, { properties?: Record<string, OpenApiProperty> }> };
}

const MULTILINE = /pem|certificate|_cert$|pubkeys|_keys$|^crl$/;

export interface PathSchema {
  /** The path's own description (its help). */
  description: string;
  fields: SchemaField[];
}

/**
 * The writable fields of `path` from the server's OpenAPI for it (`GET <path>?help=1`), with the
 * deprecated aliases (`policies`, `ttl`, …) and the path's own captures left out; `first` names go
 * first in that order, then the rest alphabetically, `token_*` last.
 */
export async function loadPathSchema(api: Api, path: string, first: readonly string[] = []): Promise<PathSchema> {
  const res = await api.request<unknown>('GET', path, { query: { help: '1' } });
  const doc = (res as { openapi?: OpenApiDocument } | undefined)?.openapi ?? {};
  const entry = Object.values(doc.paths ?? {})[0];
  const ref = entry?.post?.requestBody?.content?.['application/json']?.schema?.$ref ?? '';
  const schema = doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
  const fields = Object.entries(schema?.properties ?? {})
    .filter(([name, p]) => name !== 'name' && !/^deprecated/i.test(p.description ?? ''))
    .map(([name, p]) => fieldOf(name, p));
  const rank = (f: SchemaField) => {
    const at = first.indexOf(f.name);
    return at >= 0 ? at : f.isTokenField ? 2000 : 1000;
  };
  fields.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  return { description: entry?.description ?? '', fields };
}

function fieldOf(name: string, p: OpenApiProperty): SchemaField {
  const kind =
    p.type === 'boolean' || p.type === 'integer' || p.type === 'array' || p.type === 'object' ? p.type : 'string';
  const description = p.description ?? '';
  return {
    name,
    kind,
    description,
    values: (p.enum ?? []).map(String),
    isWriteOnly: p['x-vault-displayAttrs']?.sensitive === true,
    isMultiline: kind === 'object' || MULTILINE.test(name),
    isTokenField: name.startsWith('token_'),
  };
}

/** A value as read, as the form's text (lists comma-separated, objects as JSON); a secret is never shown. */
export function textOf(field: SchemaField, value: unknown): string {
  if (field.isWriteOnly || value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'object') return Object.keys(value).length === 0 ? '' : JSON.stringify(value, null, 2);
  return String(value);
}

/**
 * The form's text as the value the API takes (`undefined`: send nothing); a malformed number or
 * object is refused by name.
 */
export function apiValueOf(field: SchemaField, text: string): unknown {
  switch (field.kind) {
    case 'boolean':
      return text === 'true';
    case 'integer':
      // Emptied: nothing is sent (the server keeps what it has).
      if (text.trim() === '') return undefined;
      if (!/^-?\d+$/.test(text.trim())) throw new Error(`${field.name}: ${JSON.stringify(text)} is not a whole number`);
      return Number(text.trim());
    case 'array':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'object': {
      if (!text.trim()) return {};
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`${field.name} is not valid JSON`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error(`${field.name} is not a JSON object`);
      }
      return parsed;
    }
    default:
      return text;
  }
}
