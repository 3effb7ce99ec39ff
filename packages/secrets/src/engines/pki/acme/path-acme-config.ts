import { isIP } from 'node:net';
import { definePath, field, type PathDefinition } from '../../../framework/index.js';
import { InvalidRequestError } from '../../../logical/errors.js';
import { acmeStore } from './acme-store.js';

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
        default_directory_policy: field.string({ description: 'sign-verbatim (default) or role:<name>.' }),
        allowed_issuers: field.commaStrings({ description: 'Accepted; the default issuer signs.' }),
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
            if (data.default_directory_policy !== undefined) {
              const policy = data.default_directory_policy;
              if (policy !== 'sign-verbatim' && !policy.startsWith('role:'))
                throw new InvalidRequestError('default_directory_policy must be sign-verbatim or role:<name>');
              config.default_directory_policy = policy;
            }
            if (data.allowed_issuers) config.allowed_issuers = data.allowed_issuers;
            if (data.dns_resolver !== undefined) config.dns_resolver = checkedResolver(data.dns_resolver);
            if (data.eab_policy) config.eab_policy = data.eab_policy;
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
