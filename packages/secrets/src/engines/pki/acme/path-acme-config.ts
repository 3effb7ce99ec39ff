import { isIP } from 'node:net';
import { definePath, field, type PathDefinition } from '../../../framework/index.js';
import { InvalidRequestError } from '../../../logical/errors.js';
import { acmeStore } from './acme-store.js';
import { checkConfig } from './check-config.js';

/** `dns_resolver` as established: empty, or an IP address and a port (`[::1]:53` for IPv6). */
function checkedResolver(value: string): string {
  if (value === '') return value;
  const match = /^(?:\[([^\]]*)\]|([^:[\]]*)):(\d{1,5})$/.exec(value);
  if (!match) throw new InvalidRequestError(`failed to parse DNS resolver address: ${value}: missing port in address`);
  const host = match[1] ?? match[2] ?? '';
  if (host === '') throw new InvalidRequestError('failed to parse DNS resolver address: got empty address');
  if (isIP(host) === 0)
    throw new InvalidRequestError(
      'failed to parse DNS resolver address: expected IPv4/IPv6 address, likely got hostname',
    );
  if (Number(match[3]) > 65535)
    throw new InvalidRequestError(`failed to parse DNS resolver address: ${value}: invalid port`);
  return value;
}

/** `config/acme` and `config/cluster` (the mount's external URL, which ACME URLs are built on). */
export function pathAcmeConfig(): PathDefinition[] {
  return [
    definePath({
      pattern: 'config/acme',
      fields: {
        enabled: field.bool({ description: 'Serve ACME on this mount.' }),
        default_directory_policy: field.string({
          description:
            'sign-verbatim (default), role:<name> or forbid, for the directories without a role in their path.',
        }),
        allowed_issuers: field.commaStrings({ description: 'Issuers ACME may sign with (default *).' }),
        allowed_roles: field.commaStrings({ description: 'Roles with an ACME directory (default *).' }),
        allow_role_ext_key_usage: field.bool({
          description: "Use the role's extended key usages (default false: serverAuth only).",
        }),
        dns_resolver: field.string({
          description: 'DNS server (<ip>:<port>) that ACME validations ask; empty: the system resolvers.',
        }),
        eab_policy: field.enum({
          description: 'not-required (default), new-account-required or always-required.',
          values: ['not-required', 'new-account-required', 'always-required'] as const,
        }),
      },
      operations: {
        read: {
          summary: 'Read the ACME configuration.',
          handler: async ({ storage }) => ({ data: { ...(await acmeStore.config(storage)) } }),
        },
        update: {
          summary: 'Configure ACME.',
          handler: async ({ storage, data, supplied }) => {
            const config = await acmeStore.config(storage);
            if (supplied.has('enabled') && data.enabled !== undefined) config.enabled = data.enabled;
            if (data.default_directory_policy !== undefined)
              config.default_directory_policy = data.default_directory_policy;
            if (data.allowed_roles !== undefined) config.allowed_roles = data.allowed_roles;
            if (data.allowed_issuers !== undefined) config.allowed_issuers = data.allowed_issuers;
            if (data.allow_role_ext_key_usage !== undefined)
              config.allow_role_ext_key_usage = data.allow_role_ext_key_usage;
            if (data.dns_resolver !== undefined) config.dns_resolver = checkedResolver(data.dns_resolver);
            if (data.eab_policy) config.eab_policy = data.eab_policy;
            await checkConfig(storage, config);
            await acmeStore.putConfig(storage, config);
            return { data: { ...config } };
          },
        },
      },
      help: {
        synopsis: 'ACME configuration.',
        description: 'eab_policy decides whether new accounts need a key from acme/new-eab.',
      },
    }),
    definePath({
      pattern: 'config/cluster',
      fields: {
        path: field.string({ description: 'This mount’s URL as clients reach it (…/v1/pki).' }),
        aia_path: field.string({ description: 'The same, for AIA URLs.' }),
      },
      operations: {
        read: {
          summary: 'Read the cluster URLs.',
          handler: async ({ storage }) => ({ data: { ...(await acmeStore.cluster(storage)) } }),
        },
        update: {
          summary: 'Set the cluster URLs.',
          handler: async ({ storage, data }) => {
            const current = await acmeStore.cluster(storage);
            const next = { path: data.path ?? current.path, aia_path: data.aia_path ?? current.aia_path };
            await acmeStore.putCluster(storage, next);
            return { data: next };
          },
        },
      },
      help: { synopsis: 'Cluster URLs.', description: 'ACME needs path.' },
    }),
  ];
}
