import type { Clock } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import type { AuthnState, OktaApi } from './okta-api.js';
import type { PushAnswers } from './push-answers.js';

const POLL_INTERVAL_MS = 1_000;
/** Okta times a push out after 5 minutes; a login never waits longer than that. */
const MAX_POLLS = 300;

export interface MfaInput {
  /** A TOTP passcode: verifies a `token:software:totp` factor instead of sending a push. */
  totp?: string;
  /** Provider of the TOTP factor: `OKTA` (default) or `GOOGLE`. */
  provider?: string;
  /** With a push: the client's nonce, under which the push's number is shown at `verify/:nonce`. */
  nonce?: string;
}

const failed = (why: string) => new InvalidRequestError(`okta authentication failed: ${why}`);

/**
 * Completes an `MFA_REQUIRED` login with the one factor the input chooses, as established: a TOTP
 * passcode when `totp` is given, else an Okta Verify push, polled once a second until the user
 * answers. Resolves the final state (`SUCCESS`); a refusal is a 400.
 */
export async function completeMfa(
  api: OktaApi,
  state: AuthnState,
  input: MfaInput,
  deps: { clock: Clock; pushAnswers: PushAnswers },
): Promise<AuthnState> {
  const provider = (input.provider || 'OKTA').toUpperCase();
  const factor = input.totp
    ? state.factors.find((f) => f.factorType === 'token:software:totp' && f.provider === provider)
    : state.factors.find((f) => f.factorType === 'push' && f.provider === 'OKTA');
  if (!factor?.verifyHref)
    throw failed(
      input.totp
        ? `no TOTP factor of provider ${provider} is enrolled`
        : 'Okta Verify Push or a TOTP factor is required in order to perform MFA',
    );
  if (input.totp) {
    const done = await api.verify(factor.verifyHref, state.stateToken, input.totp);
    if (done.status !== 'SUCCESS') throw failed(`TOTP verification answered ${done.status || 'nothing'}`);
    return done;
  }
  let current = await api.verify(factor.verifyHref, state.stateToken);
  for (let polls = 0; current.factorResult === 'WAITING'; polls++) {
    if (current.correctAnswer !== undefined && input.nonce) deps.pushAnswers.set(input.nonce, current.correctAnswer);
    if (polls >= MAX_POLLS) throw failed('push verification timed out');
    await new Promise<void>((resolve) => deps.clock.setTimeout(resolve, POLL_INTERVAL_MS));
    current = await api.verify(current.pollHref || factor.verifyHref, state.stateToken);
  }
  if (current.factorResult === 'REJECTED') throw failed('push verification explicitly rejected');
  if (current.factorResult === 'TIMEOUT') throw failed('push verification timed out');
  if (current.status !== 'SUCCESS') throw failed(`push verification answered ${current.status || 'nothing'}`);
  return current;
}
