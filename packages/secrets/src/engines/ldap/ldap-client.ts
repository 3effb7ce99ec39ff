import { Client, type ClientOptions, type SearchOptions, SearchRequest } from 'ldapts';

/** RFC 4511 §4.5.1.3 in ldapts's words: when a search follows alias entries. */
export type DerefAliases = NonNullable<SearchOptions['derefAliases']>;

/**
 * An ldapts `Client` whose every search asks the directory to dereference aliases as
 * `derefAliases` says. ldapts 9.2 (the newest) documents a `derefAliases` search option but builds
 * its SearchRequest without it, so every search would go out as neverDerefAliases: the request is
 * amended on its way out instead, by wrapping `_send` (the client's one way onto the wire) on this
 * instance only. Internals that changed fail here loudly rather than send `never` quietly;
 * `test/auth-ldap-searches.test.ts` checks the result against slapd.
 */
export function createClient(options: ClientOptions, derefAliases: DerefAliases = 'never'): Client {
  const client = new Client(options);
  if (derefAliases === 'never') return client;
  const internals = client as unknown as { _send?: (this: Client, message: unknown) => Promise<unknown> };
  const send = internals._send;
  if (typeof send !== 'function') throw new Error('ldapts Client._send not found: cannot dereference aliases');
  internals._send = function (this: Client, message: unknown) {
    if (message instanceof SearchRequest) message.derefAliases = derefAliases;
    return send.call(this, message);
  };
  return client;
}
