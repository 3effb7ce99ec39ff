import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { PkiDeps } from './backend.js';
import { RSA_KEY_BITS } from './certificates.js';
import { pkiStore, type RoleRecord } from './pki-store.js';

const DEFAULT_ROLE: RoleRecord = {
  allowed_domains: [],
  allow_subdomains: false,
  allow_bare_domains: false,
  allow_localhost: true,
  allow_any_name: false,
  allow_ip_sans: true,
  enforce_hostnames: true,
  ttl: 0,
  max_ttl: 0,
  generate_lease: false,
  no_store: false,
  key_type: 'rsa',
  key_bits: 2048,
};

const flag = (description: string) => field.bool({ description });

/** `roles/:name` and LIST `roles`: which names a certificate may carry, for how long, with or without a lease. */
export function pathRoles(d: PkiDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'roles/',
      fields: {},
      operations: {
        list: {
          summary: 'List the roles.',
          handler: async ({ storage }) => ({ data: { keys: await pkiStore.roles(storage) } }),
        },
      },
      help: { synopsis: 'List the roles.', description: '404 when there are none.' },
    }),
    definePath({
      pattern: 'roles/:name',
      fields: {
        name: field.path({ description: 'Role name.' }),
        allowed_domains: field.commaStrings({
          description: 'Domains names may be in (see allow_subdomains, allow_bare_domains).',
        }),
        allow_subdomains: flag('Names below an allowed domain.'),
        allow_bare_domains: flag('An allowed domain itself.'),
        allow_localhost: flag('The name localhost (default true).'),
        allow_any_name: flag('Any name.'),
        allow_ip_sans: flag('IP subject alternative names (default true).'),
        enforce_hostnames: flag('Names must be valid host names (default true).'),
        ttl: field.durationSeconds({ description: 'Default validity; default: the mount’s default lease TTL.' }),
        max_ttl: field.durationSeconds({ description: 'Longest validity; default: the mount’s max lease TTL.' }),
        generate_lease: flag('Issue certificates under a lease; revoking the lease revokes the certificate.'),
        no_store: flag('Do not keep issued certificates (cannot be combined with generate_lease).'),
        key_type: field.enum({ description: 'rsa (the only type here).', values: ['rsa'] as const }),
        key_bits: field.int({ description: '2048 (default), 3072 or 4096.' }),
      },
      existenceCheck: async ({ storage, data }) => (await pkiStore.role(storage, data.name)) !== undefined,
      operations: {
        create: { summary: 'Create the role.', handler: async (c) => writeRole(d, c) },
        update: { summary: 'Update the role.', handler: async (c) => writeRole(d, c) },
        read: {
          summary: 'Read the role.',
          handler: async ({ storage, data }) => {
            const role = await pkiStore.role(storage, data.name);
            if (!role) throw new NotFoundError('');
            return { data: { ...role } };
          },
        },
        delete: {
          summary: 'Delete the role.',
          handler: async ({ storage, data }) => {
            await pkiStore.deleteRole(storage, data.name);
            return undefined;
          },
        },
      },
      help: { synopsis: 'Manage a role.', description: 'Certificates are issued against a role at issue/:name.' },
    }),
  ];
}

type RoleInput = Partial<Omit<RoleRecord, 'key_type'>> & { name: string; key_type?: 'rsa' };

async function writeRole(
  d: PkiDeps,
  {
    storage,
    data,
    supplied,
  }: { storage: Parameters<typeof pkiStore.role>[0]; data: RoleInput; supplied: ReadonlySet<string> },
) {
  return d.locks.run(`role/${data.name}`, async () => {
    const role: RoleRecord = { ...DEFAULT_ROLE, ...(await pkiStore.role(storage, data.name)) };
    for (const key of Object.keys(DEFAULT_ROLE) as (keyof RoleRecord)[]) {
      const value = data[key];
      if (supplied.has(key) && value !== undefined) (role as unknown as Record<string, unknown>)[key] = value;
    }
    if (!(RSA_KEY_BITS as readonly number[]).includes(role.key_bits))
      throw new InvalidRequestError(`invalid key_bits ${role.key_bits}: 2048, 3072 or 4096`);
    if (role.ttl < 0 || role.max_ttl < 0) throw new InvalidRequestError('ttl and max_ttl cannot be negative');
    if (role.max_ttl > 0 && role.ttl > role.max_ttl)
      throw new InvalidRequestError('ttl cannot be greater than max_ttl');
    if (role.generate_lease && role.no_store)
      throw new InvalidRequestError('generate_lease needs stored certificates: no_store cannot be true');
    await pkiStore.putRole(storage, data.name, role);
    return undefined;
  });
}
