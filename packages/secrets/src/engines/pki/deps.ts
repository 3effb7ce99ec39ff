import type { Clock, Random } from '@ward/base';
import type { KeyedMutex } from '../../framework/index.js';
import type { ManagedKeyLookup } from './managed-keys.js';

/** What the PKI paths share. */
export interface PkiDeps {
  clock: Clock;
  random: Random;
  /** Serialises changes of the issuers, of one role, of one certificate, of the CRLs. */
  locks: KeyedMutex;
  defaultTtlSeconds(): number;
  maxTtlSeconds(): number;
  /** The mount's managed keys (`kms` CA keys); absent where the server has none. */
  managedKey: ManagedKeyLookup;
  /** The port tls-alpn-01 validations connect to: 443 (RFC 8737 3), another only in tests. */
  acmeTlsAlpnPort: number;
}
