import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { type BodyErrors, CodedError, readBody } from '@ward/base';
import type { SecretAuth } from '@ward/secrets-client';
import type { CommandContext } from '../command.js';
import { CliError } from '../command.js';
import { UsageError } from '../flags.js';

/** The established defaults of the OIDC login's local listener. */
const DEFAULTS = { listenaddress: 'localhost', port: '8250', callbackmethod: 'http', callbackhost: 'localhost' };

const SUCCESS_PAGE =
  '<!DOCTYPE html><html><head><title>Ward</title></head><body><h1>Signed in to Ward</h1>' +
  '<p>You can close this window and return to the terminal.</p></body></html>';

/**
 * The most a provider's form_post answer may carry: a code, a state and an ID token are a few
 * kilobytes; anything larger is not an answer to this login.
 */
export const CALLBACK_BODY_LIMIT_BYTES = 64 * 1024;

/** A callback request the listener could not read: over the limit (413) or cut off (400). */
export class CallbackBodyError extends CodedError<'callback_too_large' | 'callback_incomplete'> {
  constructor(
    readonly code: 'callback_too_large' | 'callback_incomplete',
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const CALLBACK_BODY_ERRORS: BodyErrors = {
  tooLarge: (limit) => new CallbackBodyError('callback_too_large', 413, `the callback body is over ${limit} bytes`),
  incomplete: () => new CallbackBodyError('callback_incomplete', 400, 'the callback body ended early'),
};

/** The provider's answer at the local listener: in the query (GET) or as form_post (POST). */
async function callbackParams(req: IncomingMessage): Promise<URLSearchParams> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method !== 'POST') return url.searchParams;
  const body = await readBody(req, CALLBACK_BODY_LIMIT_BYTES, CALLBACK_BODY_ERRORS);
  return new URLSearchParams(body.toString('utf8'));
}

/** Opens `url` in the desktop's browser, if there is one; the URL is printed anyway. */
function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

/**
 * `ward login -method=oidc`: as the established CLI does, listens on `listenaddress:port`
 * (localhost:8250) for the provider's redirect to `/oidc/callback`, asks the mount for the
 * authorization URL with that redirect and a client nonce, prints it (and opens a browser unless
 * `skip_browser=true`), then hands the code and state it receives to `oidc/callback`.
 */
export async function oidcLogin(
  ctx: CommandContext,
  mount: string,
  params: Record<string, string>,
): Promise<SecretAuth> {
  const o: Record<string, string> = { ...DEFAULTS, ...params };
  const callbackPort = o.callbackport ?? o.port;
  const redirectUri = `${o.callbackmethod}://${o.callbackhost}:${callbackPort}/oidc/callback`;
  const clientNonce = randomBytes(20).toString('base64url');
  let answered: (p: URLSearchParams) => void = () => undefined;
  const arrived = new Promise<URLSearchParams>((resolve) => {
    answered = resolve;
  });
  const server = createServer((req, res) => {
    if (!(req.url ?? '').startsWith('/oidc/callback')) {
      res.writeHead(404).end();
      return;
    }
    // A request it cannot read is answered and forgotten: the login keeps waiting for the provider.
    callbackParams(req).then(
      (p) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SUCCESS_PAGE);
        answered(p);
      },
      (err: unknown) => {
        const status = err instanceof CallbackBodyError ? err.status : 400;
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`${(err as Error).message}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) =>
      reject(new CliError(`cannot listen on ${o.listenaddress}:${o.port}: ${err.message}`, 2)),
    );
    server.listen(Number(o.port), o.listenaddress, resolve);
  });
  try {
    const started = await ctx.client.write(`auth/${mount}/oidc/auth_url`, {
      role: o.role ?? '',
      redirect_uri: redirectUri,
      client_nonce: clientNonce,
    });
    const authUrl = String((started?.data as { auth_url?: unknown } | undefined)?.auth_url ?? '');
    if (!authUrl)
      throw new CliError('the server answered no auth_url (check the role and its allowed_redirect_uris)', 2);
    ctx.out.note(`Complete the login via your OIDC provider. Launching browser to:\n\n    ${authUrl}\n`);
    if (o.skip_browser !== 'true') openBrowser(authUrl);
    ctx.out.note('Waiting for OIDC authentication to complete...');
    const answer = await arrived;
    const query: Record<string, string> = { client_nonce: clientNonce };
    for (const key of ['state', 'code', 'id_token', 'error', 'error_description'])
      if (answer.get(key)) query[key] = answer.get(key) as string;
    const done = await ctx.client.read(`auth/${mount}/oidc/callback`, query);
    if (!done?.auth) throw new CliError('the server returned no token', 2);
    return done.auth;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Checks the OIDC login's own arguments. */
export function checkOidcParams(params: Record<string, string>): void {
  for (const key of ['port', 'callbackport'])
    if (params[key] !== undefined && !/^\d{1,5}$/.test(params[key] ?? ''))
      throw new UsageError(`${key} must be a port number`);
}
