import { kvMetadataWriteCommand } from '../kv-metadata-flags.js';

/** `ward kv metadata patch -max-versions=5 secret/foo`: changes only the settings given (KV v2). */
export const kvMetadataPatchCommand = kvMetadataWriteCommand({
  name: 'kv metadata patch',
  summary: "Change some of a secret's settings, keeping the others (KV v2).",
  example: 'ward kv metadata patch -custom-metadata=owner=ops secret/app',
  write: (client, target, settings) => client.patch(target.apiPath('metadata'), settings),
});
