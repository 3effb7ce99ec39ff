import { providerOf, type SnapshotConfig } from '../snapshot-auto/config.js';
import { blobTargetOptions, createBlobTarget } from './blob-target.js';
import { checkGcsSettings, createGcsTarget, gcsSettingsOf } from './gcs-target.js';
import { createLocalTarget } from './local-target.js';
import { createS3Target, s3TargetOptions } from './s3-target.js';
import type { SnapshotTarget } from './snapshot-target.js';

/**
 * Checks what a config says about its target beyond the per-field rules (half a key pair, an
 * unknown cloud): a 400 at write time rather than a failed attempt later. Creates no client.
 */
export function checkTargetConfig(config: SnapshotConfig): void {
  const provider = providerOf(config.storage_type);
  if (provider === 's3') s3TargetOptions(config);
  if (provider === 'blob') blobTargetOptions(config);
  if (provider === 'gcs') checkGcsSettings(gcsSettingsOf(config));
}

/** The target a config writes to, through its provider's SDK. */
export function targetForConfig(config: SnapshotConfig): SnapshotTarget {
  switch (providerOf(config.storage_type)) {
    case 'local':
      return createLocalTarget(config.path_prefix);
    case 's3':
      return createS3Target(s3TargetOptions(config));
    case 'blob':
      return createBlobTarget(blobTargetOptions(config));
    case 'gcs':
      return createGcsTarget(gcsSettingsOf(config));
  }
}
