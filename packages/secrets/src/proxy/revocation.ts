/** What a successful revocation request through the proxy revoked, so the cache can evict it. */
export type Revocation =
  | { kind: 'token'; token: string }
  | { kind: 'token_orphan'; token: string }
  | { kind: 'token_accessor'; accessor: string }
  | { kind: 'lease'; lease: string }
  | { kind: 'lease_prefix'; prefix: string };

/**
 * The revocation endpoints, found after an optional namespace prefix in the path
 * (`/v1/team/auth/token/revoke`); what follows the endpoint is its argument when the API takes one
 * in the path (`sys/leases/revoke-prefix/<prefix>`, `sys/leases/revoke/<lease_id>`).
 */
const REVOCATION_PATH =
  /^\/v1\/(?:.*?\/)??(auth\/token\/revoke(?:-self|-accessor|-orphan)?|sys\/leases\/revoke(?:-prefix|-force)?)(?:\/(.*))?$/;

/**
 * Reads a revocation out of a request the server answered with 204 (revocations answer nothing
 * else on success). `token` is the token the request was sent with. Undefined when the request
 * was not a revocation, or names nothing we can read (the server has answered it anyway).
 */
export function parseRevocation(pathname: string, body: Buffer, token: string): Revocation | undefined {
  const match = REVOCATION_PATH.exec(pathname);
  if (!match) return undefined;
  const [, endpoint, encoded = ''] = match;
  const inPath = safeDecode(encoded);
  const field = (name: string): string => {
    const value = jsonBody(body)[name];
    return typeof value === 'string' ? value : '';
  };
  const orNone = <R extends Revocation>(value: string, revocation: R): R | undefined =>
    value ? revocation : undefined;
  switch (endpoint) {
    case 'auth/token/revoke':
      return orNone(field('token'), { kind: 'token', token: field('token') });
    case 'auth/token/revoke-self':
      return orNone(token, { kind: 'token', token });
    case 'auth/token/revoke-orphan':
      return orNone(field('token'), { kind: 'token_orphan', token: field('token') });
    case 'auth/token/revoke-accessor':
      return orNone(field('accessor'), { kind: 'token_accessor', accessor: field('accessor') });
    case 'sys/leases/revoke': {
      const lease = inPath || field('lease_id');
      return orNone(lease, { kind: 'lease', lease });
    }
    default: {
      // revoke-prefix and revoke-force take the prefix in the path.
      return orNone(inPath, { kind: 'lease_prefix', prefix: inPath });
    }
  }
}

function jsonBody(body: Buffer): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8') || '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A lease ID in the path is percent-encoded by careful clients and not by others. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
