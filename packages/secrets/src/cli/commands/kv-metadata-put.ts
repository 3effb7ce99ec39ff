import { kvMetadataWriteCommand } from '../kv-metadata-flags.js';

/** `ward kv metadata put -max-versions=5 secret/foo`: a key's settings (KV v2). */
export const kvMetadataPutCommand = kvMetadataWriteCommand({
  name: 'kv metadata put',
  summary: "Set a secret's settings: versions kept, check-and-set, expiry, custom metadata (KV v2).",
  example: 'ward kv metadata put -max-versions=5 -custom-metadata=owner=ops secret/app',
  write: (_client, target, settings) => target.kv.v2.writeMetadata(target.key, settings),
});
