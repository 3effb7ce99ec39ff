/** The contract between the core and the backends: request, response, envelope, storage interface, typed errors. @module */
import type { DetailedPeerCertificate } from 'node:tls';
import type { EntityFacts } from './identity-template.js';

/** What a TLS connection tells about the client: `TLSSocket.getPeerCertificate(true)` (an empty object without one). */
export interface TlsConnection {
  getPeerCertificate(detailed: true): DetailedPeerCertificate | Record<string, never> | undefined;
}

/** What a request asks a backend to do. `create` vs `update` comes from the existence check, never the verb. */
export type Operation = 'read' | 'create' | 'update' | 'patch' | 'delete' | 'list' | 'help';

/** The transport-free request the core routes to a backend. Built by `http/logical-request.ts`. */
export interface LogicalRequest {
  /** UUID echoed as `request_id`. */
  id: string;
  operation: Operation;
  /** Path below `/v1/` and below the namespace, without a leading `/`; a list path ends in `/`. */
  path: string;
  /** Body (writes) or query (reads, deletes) after parsing; values not yet coerced to field types. */
  data: Record<string, unknown>;
  /**
   * Reads and parses the body, which then replaces `data`. Called by the core only once the
   * token (and the ACL as far as it can judge without the body) has accepted the request, so an
   * unauthenticated client cannot make the server read or parse a body.
   */
  readData?: () => Promise<Record<string, unknown>>;
  /**
   * The body unread and unparsed, for the few paths that take bytes rather than JSON (a snapshot
   * restore); consumed by the handler, after the token and the ACL have accepted the request.
   */
  rawBody?: AsyncIterable<Uint8Array>;
  /** The client token, `''` when none was sent. Never logged. */
  clientToken: string;
  /**
   * The `Authorization` header as sent, when there is one: the OpenID provider's token endpoint
   * reads a client's `Basic` credentials and its userinfo endpoint a `Bearer` access token there.
   * Never logged.
   */
  authorization?: string;
  /** The caller's IP address, for CIDR-bound tokens. */
  remoteAddress: string;
  /**
   * The TLS connection the request came over (absent without TLS), narrowed to the client's
   * certificates: the `cert` auth method logs in with them. Read only by who needs them, so a
   * request costs nothing for it.
   */
  tlsConnection?: TlsConnection;
  /**
   * The client's certificate (DER) as a trusted proxy passed it on (`x_forwarded_for_client_cert_header`,
   * from an address in `x_forwarded_for_authorized_addrs`): the `cert` method logs in with it
   * instead of the connection's.
   */
  forwardedClientCertificate?: Uint8Array;
  /** Namespace path from the header (`''` = root, else `ns1/ns2/`). */
  namespace: string;
  /** Filled in by the core for the request log: who asked and why a refusal happened (never the token). */
  trace?: RequestTrace;
  /** `X-Vault-Wrap-TTL`: answer with a single-use token whose cubbyhole holds the response, valid this long. */
  wrapTtlSeconds?: number;
}

/** What the request log may say about a request beyond its HTTP facts. */
export interface RequestTrace {
  /** Accessor of the caller's token, once authenticated (`''` for tokens without one). */
  accessor?: string;
  /** Set when the ACL refused the request. */
  denial?: { path: string; operation: Operation; policies: string[] };
  /** The type of the mount the request's path is under (`''` for none), once the core has routed it. */
  mountType?: string;
}

/** The part of a request a backend handler sees after the core routed it to a mount. */
export interface BackendRequest {
  id: string;
  operation: Operation;
  /** Path relative to the mount point (`data/foo` for `secret/data/foo`). */
  path: string;
  data: Record<string, unknown>;
  /** The unparsed body of a path that takes bytes (see `LogicalRequest.rawBody`). */
  rawBody?: AsyncIterable<Uint8Array>;
  /** Mount point with trailing slash (`secret/`, `auth/userpass/`). */
  mountPoint: string;
  remoteAddress: string;
  /** The client's TLS connection (see `LogicalRequest.tlsConnection`). */
  tlsConnection?: TlsConnection;
  /** The certificate a trusted proxy passed on (see `LogicalRequest.forwardedClientCertificate`). */
  forwardedClientCertificate?: Uint8Array;
  /** The authenticated caller, absent on unauthenticated paths. */
  caller?: Caller;
  /** The `Authorization` header (see `LogicalRequest.authorization`), given only to the identity backend. */
  authorization?: string;
  /** The response-wrapping TTL the client asked for, if any (`sys/wrapping/wrap` requires one). */
  wrapTtlSeconds?: number;
  /**
   * The caller's token text, given only to the token store's own backend (`auth/token/`),
   * which needs it for `*-self` operations on tokens that have no accessor (batch tokens), and
   * to the system backend, whose unauthenticated `internal/ui/mounts` judges the token itself.
   */
  clientToken?: string;
}

/** Who made a request, as resolved by the token store. */
export interface Caller {
  /** Accessor of the caller's token (never the token itself). */
  accessor: string;
  policies: string[];
  entityId: string;
  displayName: string;
  /** The caller's entity, for identity templates (PKI `allowed_domains_template`); absent without one. */
  entity?: EntityFacts;
}
