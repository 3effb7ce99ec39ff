import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { PkiDeps } from './deps.js';
import { allIssuers } from './issuers.js';
import { type CrlConfig, pkiStore } from './pki-store.js';
import { rebuildAllCrls, rebuildCrl } from './revocation.js';

const seconds = (description: string) => field.durationSeconds({ description });

/** `config/crl` as established: durations answered as Go duration strings. */
function crlConfigView(c: CrlConfig) {
  const go = (s: number) => (s % 3600 === 0 ? `${s / 3600}h` : s % 60 === 0 ? `${s / 60}m` : `${s}s`);
  return {
    expiry: go(c.expiry),
    disable: c.disable,
    ocsp_disable: c.ocsp_disable,
    ocsp_expiry: go(c.ocsp_expiry),
    auto_rebuild: c.auto_rebuild,
    auto_rebuild_grace_period: go(c.auto_rebuild_grace_period),
    enable_delta: c.enable_delta,
    delta_rebuild_interval: go(c.delta_rebuild_interval),
    cross_cluster_revocation: c.cross_cluster_revocation,
    unified_crl: c.unified_crl,
    unified_crl_on_existing_paths: c.unified_crl_on_existing_paths,
  };
}

/** `config/crl`, `crl/rotate` and `crl/rotate-delta`. */
export function pathCrl(d: PkiDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'config/crl',
      fields: {
        expiry: seconds('How long a CRL is valid (default 72h).'),
        disable: field.bool({ description: 'Build empty CRLs.' }),
        ocsp_disable: field.bool({ description: 'Turn the OCSP responder off.' }),
        ocsp_expiry: seconds('How long an OCSP answer is valid (default 12h; 0: no nextUpdate).'),
        auto_rebuild: field.bool({ description: 'Rebuild CRLs when they expire instead of at each revocation.' }),
        auto_rebuild_grace_period: seconds('How long before expiry an auto-rebuilt CRL is rebuilt.'),
        enable_delta: field.bool({ description: 'Build delta CRLs too (needs auto_rebuild).' }),
        delta_rebuild_interval: seconds('How often a delta CRL is rebuilt.'),
        cross_cluster_revocation: field.bool({ description: 'Kept; one cluster here, so nothing to share.' }),
        unified_crl: field.bool({ description: 'Serve unified-crl/unified-ocsp (one cluster: the local ones).' }),
        unified_crl_on_existing_paths: field.bool({ description: 'Kept; the local CRL is already the unified one.' }),
      },
      operations: {
        read: {
          summary: 'Read the CRL configuration.',
          handler: async ({ storage }) => ({ data: crlConfigView(await pkiStore.crlConfig(storage)) }),
        },
        update: {
          summary: 'Configure CRLs.',
          handler: async ({ storage, data, supplied }) =>
            d.locks.run('crl', async () => {
              const config = await pkiStore.crlConfig(storage);
              for (const key of Object.keys(config) as (keyof CrlConfig)[])
                if (supplied.has(key) && data[key] !== undefined)
                  (config as unknown as Record<string, unknown>)[key] = data[key];
              if (config.enable_delta && !config.auto_rebuild)
                throw new InvalidRequestError('delta CRLs enabled, but auto_rebuild is disabled');
              if (config.unified_crl && !config.auto_rebuild)
                throw new InvalidRequestError(
                  'unified_crl=true requires auto_rebuild=true, as unified CRLs cannot be rebuilt on every revocation.',
                );
              if (config.unified_crl_on_existing_paths && !config.unified_crl)
                throw new InvalidRequestError(
                  'unified_crl_on_existing_paths cannot be enabled if unified_crl is disabled',
                );
              await pkiStore.putCrlConfig(storage, config);
              await rebuildAllCrls(d, storage);
              return { data: crlConfigView(config) };
            }),
        },
      },
      help: { synopsis: 'Configure CRLs.', description: 'Applies at the next build; each change rebuilds them.' },
    }),
    definePath({
      pattern: 'crl/rotate',
      fields: {},
      operations: {
        read: {
          summary: 'Rebuild every CRL now.',
          handler: async ({ storage }) => {
            await d.locks.run('crl', () => rebuildAllCrls(d, storage));
            return { data: { success: true } };
          },
        },
      },
      help: { synopsis: 'Rotate the CRLs.', description: 'Each issuer’s CRL is built and signed again.' },
    }),
    definePath({
      pattern: 'crl/rotate-delta',
      fields: {},
      operations: {
        read: {
          summary: 'Rebuild every delta CRL now.',
          handler: async ({ storage }) => {
            if (!(await pkiStore.crlConfig(storage)).enable_delta)
              throw new InvalidRequestError('delta CRLs are not enabled');
            for (const issuer of await allIssuers(storage))
              if (issuer.key_id) await rebuildCrl(d, storage, issuer, true);
            return { data: { success: true } };
          },
        },
      },
      help: { synopsis: 'Rotate the delta CRLs.', description: 'Needs enable_delta.' },
    }),
  ];
}
