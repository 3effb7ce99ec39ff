import { randomUuid } from '@ward/base';
import type { PkiDeps } from '../deps.js';
import type { AcmeDirectory } from './acme-directory.js';
import type { AcmeEndpoint } from './acme-endpoint.js';
import { needAccount } from './acme-endpoint.js';
import { revokeCertificate } from './acme-revoke.js';
import { type AcmeAccount, acmeStore } from './acme-store.js';
import { bindExternalAccount } from './eab.js';
import { AcmeProblem, requireBindingIfAlways, thumbprintOf } from './jws.js';
import { changeAccountKey } from './key-change.js';

/** An account object (RFC 8555 7.1.2): its contacts only when it has some, as established. */
function accountReply(dir: AcmeDirectory, account: AcmeAccount, status: number) {
  const url = `${dir.base}/account/${account.id}`;
  return {
    status,
    body: {
      status: account.status,
      orders: `${url}/orders`,
      ...(account.contact.length > 0 ? { contact: account.contact } : {}),
    },
    headers: { Location: url },
  };
}

/** `new-account`, `account/:kid`, `key-change` and `revoke-cert` (RFC 8555 7.3, 7.6). */
export function accountEndpoints(d: PkiDeps): AcmeEndpoint[] {
  return [
    {
      pattern: 'new-account',
      captures: [],
      handle: async ({ storage, dir, jws }) => {
        if (!jws.jwk) throw new AcmeProblem('malformed', 'new-account must carry its jwk');
        const thumbprint = await thumbprintOf(jws.jwk);
        const known = await acmeStore.accountByThumbprint(storage, thumbprint);
        const existing = known ? await acmeStore.account(storage, known.id) : undefined;
        if (existing) {
          if ((existing.directory ?? 'acme/') !== dir.prefix)
            throw new AcmeProblem('malformed', 'account part of different ACME directory path');
          requireBindingIfAlways(dir, existing);
          return accountReply(dir, existing, 200);
        }
        if (jws.payload?.onlyReturnExisting === true)
          throw new AcmeProblem('accountDoesNotExist', 'no account for this key');
        // As established, a binding given is checked (and used up) whatever the policy.
        const binding = jws.payload?.externalAccountBinding;
        const eabId =
          dir.config.eab_policy !== 'not-required' || binding !== undefined
            ? await bindExternalAccount(
                storage,
                binding,
                jws.jwk as Record<string, unknown>,
                `${dir.base}/new-account`,
                dir.prefix,
              )
            : undefined;
        const contact = Array.isArray(jws.payload?.contact) ? (jws.payload.contact as unknown[]).map(String) : [];
        const account: AcmeAccount = {
          id: randomUuid(d.random),
          directory: dir.prefix,
          jwk: jws.jwk as Record<string, unknown>,
          thumbprint,
          status: 'valid',
          contact,
          created_time: new Date(d.clock.now()).toISOString(),
          ...(eabId ? { eab_id: eabId } : {}),
        };
        await acmeStore.putAccount(storage, account);
        await acmeStore.putThumbprint(storage, thumbprint, account.id);
        return accountReply(dir, account, 201);
      },
    },
    {
      pattern: 'account/:kid',
      captures: ['kid'],
      handle: async ({ storage, dir, jws, ids }) => {
        const account = needAccount(jws);
        if (account.id !== ids.kid) throw new AcmeProblem('unauthorized', 'not this account', 401);
        if (jws.payload?.status === 'deactivated') {
          account.status = 'deactivated';
          account.revoked_time = new Date(d.clock.now()).toISOString();
        }
        if (Array.isArray(jws.payload?.contact)) account.contact = (jws.payload.contact as unknown[]).map(String);
        await acmeStore.putAccount(storage, account);
        return accountReply(dir, account, 200);
      },
    },
    {
      pattern: 'revoke-cert',
      captures: [],
      handle: async ({ storage, jws }) => {
        await revokeCertificate(d, storage, jws);
        return { status: 200 };
      },
    },
    {
      pattern: 'key-change',
      captures: [],
      handle: async ({ storage, dir, jws }) => {
        const account = needAccount(jws);
        const accountUrl = `${dir.base}/account/${account.id}`;
        await changeAccountKey(storage, account, jws.payload, `${dir.base}/key-change`, accountUrl);
        return accountReply(dir, account, 200);
      },
    },
  ];
}
