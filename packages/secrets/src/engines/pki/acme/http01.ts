import { AcmeProblem } from './jws.js';

const VALIDATION_TIMEOUT_MS = 10_000;

/**
 * Whether `http://<domain>/.well-known/acme-challenge/<token>` answers the key authorization
 * (RFC 8555 8.3): fetched on port 80, as the protocol fixes, following redirects.
 */
export async function validateHttp01(domain: string, token: string, keyAuthorization: string): Promise<void> {
  let text: string;
  try {
    const res = await fetch(`http://${domain}/.well-known/acme-challenge/${token}`, {
      signal: AbortSignal.timeout(VALIDATION_TIMEOUT_MS),
    });
    if (res.status !== 200)
      throw new AcmeProblem('incorrectResponse', `the challenge answered HTTP ${res.status}`, 400);
    text = (await res.text()).trim();
  } catch (err) {
    if (err instanceof AcmeProblem) throw err;
    throw new AcmeProblem(
      'connection',
      `could not fetch the challenge from ${domain}: ${err instanceof Error ? err.message : err}`,
      400,
    );
  }
  if (text !== keyAuthorization)
    throw new AcmeProblem('incorrectResponse', 'the challenge answered another key authorization', 400);
}
