import type { SealStatus } from '@ward/secrets-client';

/**
 * The seal rows `ward status` and `ward operator unseal` print, as established: with an auto
 * seal the shares are recovery shares and the recovery seal's type is shown.
 */
export function sealFields(s: SealStatus): Record<string, unknown> {
  return {
    'Seal Type': s.type,
    ...(s.recovery_seal ? { 'Recovery Seal Type': s.recovery_seal_type ?? 'shamir' } : {}),
    Initialized: s.initialized,
    Sealed: s.sealed,
    [s.recovery_seal ? 'Total Recovery Shares' : 'Total Shares']: s.n,
    Threshold: s.t,
  };
}
