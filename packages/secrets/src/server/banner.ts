import type { ListenerAddress } from '../http/listener.js';
import { describeStorage } from '../storage/index.js';
import type { ServerConfig } from './config.js';

export interface BannerFacts {
  version: string;
  config: ServerConfig;
  addresses: readonly ListenerAddress[];
  isInitialized: boolean;
  isSealed: boolean;
  /** `shamir`, or the auto seal's stanza name. */
  sealType: string;
  /** A seal migration waits for `ward operator unseal -migrate`. */
  isMigrationPending: boolean;
}

/**
 * What the server prints once it listens, as the established server does: enough to see at a
 * glance which storage and listeners it runs with, and what the operator must do next.
 */
export function startBanner(facts: BannerFacts): string {
  const { config, addresses } = facts;
  const storage = describeStorage(config.storage);
  const rows: Array<[string, string]> = [
    ['Version', `Ward v${facts.version}`],
    ['Storage', storage],
    ...addresses.map((a, i): [string, string] => [
      `Listener ${i + 1}`,
      // A worker's own API socket (`workers` > 1) is a Unix socket, not TCP.
      a.url.startsWith('unix://')
        ? `unix (path: "${a.url.slice('unix://'.length)}", tls: "disabled")`
        : `tcp (addr: "${a.url.replace(/^https?:\/\//, '')}", tls: "${a.url.startsWith('https:') ? 'enabled' : 'disabled'}")`,
    ]),
    ['Log Level', config.logLevel],
    ['Seal Type', facts.sealType],
    ['Seal State', sealState(facts)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    '==> Ward server configuration:',
    '',
    ...rows.map(([k, v]) => `  ${k.padStart(width)}: ${v}`),
    '',
    '==> Ward server started! Log data will stream in below:',
    '',
    '',
  ].join('\n');
}

function sealState({ isInitialized, isSealed, sealType, isMigrationPending }: BannerFacts): string {
  const isAuto = sealType !== 'shamir';
  if (!isInitialized) {
    return isAuto
      ? 'uninitialized (run `ward operator init`: it makes recovery keys and the server unseals itself)'
      : 'uninitialized (run `ward operator init`, then `ward operator unseal`)';
  }
  if (!isSealed) return 'unsealed';
  if (isMigrationPending)
    return "sealed, seal migration pending (run `ward operator unseal -migrate` with the old seal's keys)";
  return isAuto
    ? `sealed (the ${sealType} seal could not unseal it yet: see the log; it tries again every 5 s)`
    : 'sealed (run `ward operator unseal` with the key shares)';
}
