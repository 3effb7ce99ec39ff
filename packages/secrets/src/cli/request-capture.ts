import { CodedError } from '@ward/base';
import type { FetchFunction } from '@ward/secrets-client';

/**
 * `-output-curl-string` and `-output-policy`: instead of sending a command's request, print it as
 * a curl command line, or the policy a token needs to make it, as the established CLI does. The
 * command runs as usual against a `fetch` that stops it at its request: that request is thrown as
 * a `CapturedRequest`, which main.ts prints. Lookups the client makes for itself first (which KV
 * version a mount is) are still sent, so `kv put` shows the request it would really make.
 */
export class CapturedRequest extends CodedError<'request_captured'> {
  readonly code = 'request_captured';
  constructor(readonly text: string) {
    super('request captured');
  }
}

export type CaptureMode = 'curl' | 'policy';

/** The mounts lookup behind `kv` commands, which capture lets through. */
const SELF_LOOKUP = '/v1/sys/internal/ui/mounts/';

export function capturingFetch(mode: CaptureMode, send: FetchFunction = fetch): FetchFunction {
  return async (url, init) => {
    const method = init.method ?? 'GET';
    if (method === 'GET' && new URL(url).pathname.startsWith(SELF_LOOKUP)) return send(url, init);
    throw new CapturedRequest(mode === 'curl' ? curlString(url, init) : policyFor(url, method));
  };
}

function curlString(url: string, init: RequestInit): string {
  const words = ['curl', '-X', init.method ?? 'GET'];
  for (const [name, value] of new Headers(init.headers).entries()) {
    // The token itself never goes to the terminal: the command that prints it does.
    const shown = name === 'x-vault-token' ? '$(ward print token)' : value;
    words.push('-H', `"${headerName(name)}: ${shown}"`);
  }
  if (typeof init.body === 'string' && init.body !== '') words.push('-d', shellQuote(init.body));
  words.push(url);
  return words.join(' ');
}

/** `x-vault-token` → `X-Vault-Token`: headers as a person writes them. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => `${dash}${c.toUpperCase()}`);
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The capability each method needs, as the established CLI's policy output names them. */
const CAPABILITIES: ReadonlyMap<string, string[]> = new Map([
  ['GET', ['read']],
  ['LIST', ['list']],
  ['PUT', ['create', 'update']],
  ['POST', ['create', 'update']],
  ['PATCH', ['patch']],
  ['DELETE', ['delete']],
]);

function policyFor(url: string, method: string): string {
  const parsed = new URL(url);
  let path = decodeURIComponent(parsed.pathname.replace(/^\/v1\//, ''));
  const isList = method === 'LIST' || parsed.searchParams.get('list') === 'true';
  if (isList && !path.endsWith('/')) path = `${path}/`;
  const capabilities = CAPABILITIES.get(isList ? 'LIST' : method) ?? ['read'];
  return `path "${path}" {\n  capabilities = [${capabilities.map((c) => `"${c}"`).join(', ')}]\n}`;
}
