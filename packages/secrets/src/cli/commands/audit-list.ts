import { defineCommand, flag } from '../command.js';

interface AuditDevice {
  type: string;
  description: string;
  options?: Record<string, string> | null;
}

/** `ward audit list`: the enabled audit devices. */
export const auditListCommand = defineCommand({
  name: 'audit list',
  summary: 'List the enabled audit devices.',
  usage: '',
  example: 'ward audit list -detailed',
  flags: { detailed: flag.bool('Also show each device’s options.') },
  args: { min: 0, max: 0 },
  async run({ flags }, { client, out }) {
    const secret = await client.read('sys/audit');
    const devices = (secret?.data ?? {}) as Record<string, AuditDevice>;
    const entries = Object.entries(devices).sort(([a], [b]) => a.localeCompare(b));
    if (entries.length === 0 && out.format === 'table') {
      out.note('No audit devices are enabled.');
      return 2;
    }
    const headers = ['Path', 'Type', 'Description', ...(flags.detailed ? ['Options'] : [])];
    const rows = entries.map(([path, d]) => [
      path,
      d.type,
      d.description || 'n/a',
      ...(flags.detailed ? [d.options ?? {}] : []),
    ]);
    out.rows(headers, rows, devices);
    return undefined;
  },
});
