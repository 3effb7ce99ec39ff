import type { AuditAdmin } from '../core/audit/index.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';

/** Root-protected (`sudo`) audit paths, for the system backend's special paths. */
export const AUDIT_ROOT_PATHS = ['audit', 'audit/*'];

/** `sys/audit`, `sys/audit/:path`, `sys/audit-hash/:path`: list, enable and disable audit devices. */
export function pathAudit(audit: AuditAdmin): PathDefinition[] {
  return [pathAuditList(audit), pathAuditDevice(audit), pathAuditHash(audit)];
}

function pathAuditList(audit: AuditAdmin): PathDefinition {
  return definePath({
    pattern: 'audit',
    fields: {},
    operations: {
      read: {
        summary: 'List the enabled audit devices.',
        handler: async () => ({
          data: Object.fromEntries(audit.list().map((d) => [d.path, d])),
          dataAtTopLevel: true,
        }),
      },
    },
    help: { synopsis: 'List the enabled audit devices.', description: 'Keys are device paths with a trailing slash.' },
  });
}

function pathAuditDevice(audit: AuditAdmin): PathDefinition {
  return definePath({
    pattern: 'audit/*path',
    fields: {
      path: field.path({ description: 'Where the device is enabled (a name; it never appears in request paths).' }),
      type: field.string({ description: 'Device type: `file` or `socket`.' }),
      description: field.string({ description: 'Human-readable description of the device.', default: '' }),
      options: field.stringMap({
        description:
          'Device options. `file`: `file_path` (or `stdout`, `discard`), `mode` (`0600`). `socket`: `address`, ' +
          '`socket_type` (`tcp`, `udp`, `unix`), `write_timeout` (`2s`). Any type: `hmac_accessor` (true), ' +
          '`log_raw` (false), `elide_list_responses` (false), `prefix`, `format` (`json`).',
      }),
      local: field.bool({ description: 'Not replicated (accepted for compatibility).', default: false }),
    },
    operations: {
      update: {
        summary: 'Enable an audit device at this path.',
        handler: async ({ data }) => {
          await audit.enable(data.path, {
            type: data.type ?? '',
            description: data.description,
            options: data.options ?? {},
            local: data.local,
          });
          return undefined;
        },
      },
      delete: {
        summary: 'Disable the audit device at this path; its salt is erased with it.',
        handler: async ({ data }) => {
          await audit.disable(data.path);
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Enable or disable an audit device.',
      description:
        'Every request and response is written to each enabled device before the client gets an answer; ' +
        'when no device can write, the request fails. Secrets appear only as `hmac-sha256:` digests.',
    },
  });
}

function pathAuditHash(audit: AuditAdmin): PathDefinition {
  return definePath({
    pattern: 'audit-hash/*path',
    fields: {
      path: field.path({ description: 'The audit device whose salt to use.' }),
      input: field.string({ description: 'The value to hash.', default: '' }),
    },
    operations: {
      update: {
        summary: 'Hash a value the way this device writes it.',
        handler: async ({ data }) => ({ data: { hash: audit.hash(data.path, data.input) }, dataAtTopLevel: true }),
      },
    },
    help: {
      synopsis: 'The digest an audit device writes for a value.',
      description: 'Lets an operator find a known secret in the log without the log holding it.',
    },
  });
}
