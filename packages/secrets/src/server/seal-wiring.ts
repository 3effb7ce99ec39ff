import type { Logger, Random } from '@ward/base';
import type { SealSetup, SealWrapper } from '../core/seal/index.js';
import type { Pkcs11Modules } from '../sys/kms/index.js';
import { AwsKmsSeal } from '../sys/kms/seals/aws-kms-seal.js';
import { AzureKeyVaultSeal } from '../sys/kms/seals/azure-key-vault-seal.js';
import { GcpKmsSeal } from '../sys/kms/seals/gcp-kms-seal.js';
import { Pkcs11Seal } from '../sys/kms/seals/pkcs11-seal.js';
import { TransitSeal } from '../sys/kms/seals/transit-seal.js';
import type { SealStanza, SealsConfig } from './seal-config.js';

/** What the seal wrappers are built with. */
export interface SealWiringDeps {
  pkcs11: Pkcs11Modules;
  random: Random;
  logger: Logger;
}

/**
 * The composition root's factory of seals: one wrapper per `seal` stanza (the enabled one, and
 * a disabled one a migration moves from). Keys a stanza holds without effect are named in a
 * warning, never ignored silently.
 */
export function createSealSetup(seals: SealsConfig | undefined, deps: SealWiringDeps): SealSetup {
  const build = (stanza: SealStanza | undefined) => {
    if (!stanza) return undefined;
    if (stanza.inertKeys.length > 0) {
      deps.logger.warn(`seal "${stanza.type}": these keys have no effect in Ward`, { keys: stanza.inertKeys });
    }
    return createSealWrapper(stanza, deps);
  };
  return { wrapper: build(seals?.enabled), previous: build(seals?.disabled) };
}

function createSealWrapper(stanza: SealStanza, deps: SealWiringDeps): SealWrapper {
  const { settings } = stanza;
  switch (settings.provider) {
    case 'pkcs11':
      return new Pkcs11Seal(stanza.type, deps.pkcs11, settings, deps.random);
    case 'transit':
      return new TransitSeal(stanza.type, settings);
    case 'alphakms':
      return new AwsKmsSeal(stanza.type, settings);
    case 'betakeyvault':
      return new AzureKeyVaultSeal(stanza.type, settings);
    case 'gammackms':
      return new GcpKmsSeal(stanza.type, settings);
  }
}
