import type { RekeyAdmin, SealKeyAdmin } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { LogicalResponse } from '../logical/response.js';
import type { CancelGuard } from './ceremony-guard.js';

/** These answer without the envelope, as established clients read them (`result["nonce"]`). */
export const bare = (body: unknown): LogicalResponse => ({ raw: { status: 200, body } });

export const keyFields = {
  key: field.string({ description: 'One key share (hex or base64).' }),
  nonce: field.string({ description: 'Nonce of the operation the share is for.' }),
};

/** A share is required; the established text when it is missing. */
export function requireKey(key: string | undefined): string {
  if (!key) throw new InvalidRequestError("'key' must be specified in request body as JSON");
  return key;
}

/**
 * `sys/rekey/*` (Shamir: new unseal shares, the root key stays; an auto seal: a new root key, authorised by
 * recovery shares) and `sys/rekey-recovery-key/*` (an auto seal's recovery shares).
 */
export function pathRekey(keys: SealKeyAdmin, guard: CancelGuard): PathDefinition[] {
  const recovery = () => {
    if (!keys.rekeyRecovery) throw new InvalidRequestError('recovery keys not supported');
    return keys.rekeyRecovery;
  };
  return [
    ...rekeyPaths('rekey', () => keys.rekey, 'unseal', guard),
    ...rekeyPaths('rekey-recovery-key', recovery, 'recovery', guard),
  ];
}

function rekeyPaths(
  prefix: string,
  target: () => RekeyAdmin,
  what: 'unseal' | 'recovery',
  guard: CancelGuard,
): PathDefinition[] {
  const rekey = {
    status: () => target().status(),
    start: (o: Parameters<RekeyAdmin['start']>[0]) => target().start(o),
    cancel: () => target().cancel(),
    update: (key: string, nonce: string) => target().update(key, nonce),
    verifyStatus: () => target().verifyStatus(),
    restartVerification: () => target().restartVerification(),
    verify: (key: string, nonce: string) => target().verify(key, nonce),
  };
  return [
    definePath({
      pattern: `${prefix}/init`,
      // A rekey's attempt, nonce and progress live only in the active server's memory.
      forwardToActive: true,
      fields: {
        secret_shares: field.int({ description: 'Number of new shares.', default: 5 }),
        secret_threshold: field.int({ description: 'Shares needed to unseal.', default: 3 }),
        pgp_keys: field.commaStrings({ description: 'Not supported: PGP-encrypted shares.' }),
        backup: field.bool({ description: 'Not supported: back up PGP-encrypted shares.' }),
        require_verification: field.bool({ description: 'New shares take effect only once verified.' }),
      },
      operations: {
        read: { summary: 'Progress of the rekey.', handler: async () => bare(await rekey.status()) },
        update: {
          summary: 'Start a rekey.',
          handler: async ({ data }) => {
            if (data.pgp_keys?.length) throw new InvalidRequestError('PGP-encrypted key shares are not supported');
            if (data.backup) {
              throw new InvalidRequestError(
                'cannot request a backup of the new keys without providing PGP keys for encryption',
              );
            }
            const status = await rekey.start({
              shares: data.secret_shares,
              threshold: data.secret_threshold,
              requireVerification: data.require_verification === true,
            });
            return bare(status);
          },
        },
        delete: {
          summary: 'Cancel the rekey; shares submitted so far are forgotten.',
          handler: async ({ req }) => {
            const status = await rekey.status();
            // A rekey awaiting verification has handed out its new shares: cancelling throws them away.
            const hasProgress = status.progress > 0 || 'verification_nonce' in status;
            await guard(req, `sys/${prefix}/init`, hasProgress);
            rekey.cancel();
            return undefined;
          },
        },
      },
      help: {
        synopsis: `Start, read or cancel a rekey of the ${what} key shares.`,
        description: `Holders of the current shares then submit them to \`sys/${prefix}/update\`.`,
      },
    }),
    definePath({
      pattern: `${prefix}/update`,
      forwardToActive: true,
      fields: keyFields,
      operations: {
        update: {
          summary: 'Submit one current share; the last one receives the new shares.',
          handler: async ({ data }) =>
            bare((await rekey.update(requireKey(data.key), data.nonce ?? '')) ?? (await rekey.status())),
        },
      },
      help: { synopsis: 'Submit a share toward a rekey.', description: 'The new shares are shown once.' },
    }),
    definePath({
      pattern: `${prefix}/verify`,
      forwardToActive: true,
      fields: keyFields,
      operations: {
        read: { summary: 'Progress of the verification.', handler: async () => bare(rekey.verifyStatus()) },
        update: {
          summary: 'Submit one new share; a threshold of them puts the new shares in force.',
          handler: async ({ data }) =>
            bare((await rekey.verify(requireKey(data.key), data.nonce ?? '')) ?? rekey.verifyStatus()),
        },
        delete: {
          summary: 'Restart the verification with a new nonce.',
          handler: async ({ req }) => {
            await guard(req, `sys/${prefix}/verify`, rekey.verifyStatus().progress > 0);
            return bare(rekey.restartVerification());
          },
        },
      },
      help: {
        synopsis: 'Verify the new shares of a rekey.',
        description: 'With `require_verification`, the old shares stay in force until this completes.',
      },
    }),
    definePath({
      pattern: prefix === 'rekey' ? 'rekey/backup' : 'rekey/recovery-key-backup',
      forwardToActive: true,
      fields: {},
      operations: {
        read: {
          summary: 'Backed-up PGP-encrypted shares (never any here).',
          handler: async () => {
            throw new InvalidRequestError('no backed-up keys found');
          },
        },
        delete: { summary: 'Delete the backed-up shares.', handler: async () => undefined },
      },
      help: {
        synopsis: 'Backups of PGP-encrypted shares.',
        description: 'Ward does not encrypt shares with PGP, so there are never backups.',
      },
    }),
  ];
}
