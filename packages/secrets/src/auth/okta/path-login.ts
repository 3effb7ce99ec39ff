import type { Clock } from '@ward/base';
import type { Dispatcher } from 'undici';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { tokenGrant } from '../common/index.js';
import { completeMfa } from './mfa.js';
import { OktaApi } from './okta-api.js';
import { oktaStore, orgUrl } from './okta-store.js';
import { groupMapping } from './path-mappings.js';
import type { PushAnswers } from './push-answers.js';

export interface OktaLoginDeps {
  clock: Clock;
  pushAnswers: PushAnswers;
  /** How Okta is reached (tests: a dispatcher trusting the fake's CA); default: undici's global one. */
  dispatcher?: Dispatcher;
}

const failed = (why: string) => new InvalidRequestError(`okta authentication failed: ${why}`);

/** `login/:username`: the password (and MFA) checked by Okta; policies from the user's and groups' mappings. */
export function pathLogin(d: OktaLoginDeps) {
  return definePath({
    pattern: 'login/:username',
    fields: {
      username: field.path({ description: 'The Okta username.' }),
      password: field.string({ description: 'The password.' }),
      totp: field.string({ description: 'A TOTP passcode, for a TOTP factor instead of a push.' }),
      provider: field.string({ description: 'Provider of the TOTP factor: OKTA (default) or GOOGLE.' }),
      nonce: field.string({ description: 'Names the push at verify/:nonce (its number to pick).' }),
    },
    operations: {
      update: {
        summary: 'Log in with an Okta username and password.',
        handler: async ({ storage, data }) => {
          const config = await oktaStore.config(storage);
          if (!config) throw new InvalidRequestError('Okta auth method not configured');
          if (!data.password) throw new InvalidRequestError('password is required');
          const api = new OktaApi(orgUrl(config), d.dispatcher);
          let state = await api.authn(data.username, data.password);
          const warnings: string[] = [];
          switch (state.status) {
            case 'SUCCESS':
              break;
            case 'PASSWORD_WARN':
              warnings.push('Your Okta password is in warning state and needs to be changed soon.');
              break;
            case 'MFA_REQUIRED':
              if (!config.bypass_okta_mfa)
                state = { ...(await completeMfa(api, state, data, d)), userId: state.userId };
              break;
            case 'MFA_ENROLL':
            case 'MFA_ENROLL_ACTIVATE':
              if (!config.bypass_okta_mfa) throw failed('Okta MFA enrollment required');
              break;
            case 'PASSWORD_EXPIRED':
              if (!config.bypass_okta_mfa) throw failed('PASSWORD_EXPIRED');
              break;
            default:
              throw failed(state.status || 'no status');
          }
          if (!state.userId) throw failed('Okta named no user');
          const user = await oktaStore.mapping(storage, 'users', data.username);
          const oktaGroups = config.api_token ? await api.groupsOf(state.userId, config.api_token) : [];
          const groups = [...new Set([...oktaGroups, ...(user?.groups ?? [])])];
          const policies = new Set([...config.token.token_policies, ...(user?.policies ?? [])]);
          for (const group of groups)
            for (const p of (await groupMapping(storage, group))?.policies ?? []) policies.add(p);
          if (policies.size === 0) throw new InvalidRequestError('user is not a member of any authorized policy');
          return {
            ...(warnings.length > 0 ? { warnings } : {}),
            login: {
              aliasName: data.username,
              displayName: data.username,
              metadata: { username: data.username, policies: [...policies].join(',') },
              groupAliases: oktaGroups,
              ...tokenGrant(config.token),
              policies: [...policies],
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with an Okta username and password.',
      description:
        'Needs no token. Okta’s authentication API checks the password; when Okta requires MFA, `totp` answers a ' +
        'TOTP factor, else an Okta Verify push is sent and the login waits for it (with `nonce`, its number is at ' +
        '`verify/<nonce>`). A refusal is a 400; Okta unreachable, a 502.',
    },
  });
}

/** `verify/:nonce`: the number an Okta Verify push of a login in flight asks the user to pick. */
export function pathVerify(pushAnswers: PushAnswers) {
  return definePath({
    pattern: 'verify/:nonce',
    fields: { nonce: field.path({ description: 'The nonce the login was sent with.' }) },
    operations: {
      read: {
        summary: 'Read the number of a waiting push.',
        handler: async ({ data }) => {
          const answer = pushAnswers.get(data.nonce);
          return answer === undefined ? undefined : { data: { correct_answer: answer } };
        },
      },
    },
    help: { synopsis: 'The number to pick in Okta Verify.', description: '404 when no push waits under the nonce.' },
  });
}
