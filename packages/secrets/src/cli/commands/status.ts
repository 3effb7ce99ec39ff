import { defineCommand } from '../command.js';
import { sealFields } from '../seal-fields.js';

/** `ward status`: seal status; exit 2 when sealed, as established scripts expect. */
export const statusCommand = defineCommand({
  name: 'status',
  summary: 'Print the seal status of the server.',
  usage: '',
  example: 'ward status',
  description: 'Exit status: 0 unsealed, 2 sealed, 1 error talking to the server.',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    const s = await client.sys.status();
    out.fields(
      {
        ...sealFields(s),
        ...(s.sealed ? { 'Unseal Progress': `${s.progress}/${s.t}`, 'Unseal Nonce': s.nonce || 'n/a' } : {}),
        ...(s.migration ? { 'Seal Migration in Progress': true } : {}),
        Version: s.version,
        'Build Date': s.build_date ?? 'n/a',
        'Storage Type': s.storage_type ?? 'n/a',
        ...(s.cluster_name ? { 'Cluster Name': s.cluster_name, 'Cluster ID': s.cluster_id } : {}),
        'HA Enabled': false,
      },
      s,
    );
    return s.sealed ? 2 : 0;
  },
});
