import { checkTtls, definePath, type FieldSpec, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { PkiDeps } from './deps.js';
import { checkKeyParams } from './keys.js';
import { checkAllowedOtherSans } from './other-sans.js';
import { DEFAULT_ROLE, type RoleRecord, roleStore } from './role-store.js';

const DURATIONS = new Set(['ttl', 'max_ttl', 'not_before_duration']);
const KEY_TYPES = ['rsa', 'ec', 'ed25519', 'any'] as const;

/** One field per role setting, typed after its default (booleans, durations, lists, strings). */
function roleFields(): Record<string, FieldSpec<unknown>> {
  const fields: Record<string, FieldSpec<unknown>> = {};
  for (const [name, fallback] of Object.entries(DEFAULT_ROLE)) {
    const description = `Role setting ${name} (default ${JSON.stringify(fallback)}).`;
    if (name === 'key_type') fields[name] = field.enum({ description, values: KEY_TYPES });
    else if (typeof fallback === 'boolean') fields[name] = field.bool({ description });
    else if (DURATIONS.has(name)) fields[name] = field.durationSeconds({ description });
    else if (typeof fallback === 'number') fields[name] = field.int({ description });
    else if (Array.isArray(fallback)) fields[name] = field.commaStrings({ description });
    else fields[name] = field.string({ description });
  }
  return fields;
}

function checkRole(role: RoleRecord): void {
  if (role.key_type !== 'any') {
    const checked = checkKeyParams(role.key_type, role.key_bits);
    role.key_bits = checked.bits;
  }
  checkTtls(role.ttl, role.max_ttl, '"ttl" value must be less than "max_ttl" value');
  if (role.generate_lease && role.no_store)
    throw new InvalidRequestError('"no_store" cannot be set when "generate_lease" is set');
  checkAllowedOtherSans(role.allowed_other_sans);
  for (const v of role.cn_validations)
    if (!['email', 'hostname', 'disabled'].includes(v))
      throw new InvalidRequestError(`unknown cn_validations value ${v}`);
}

/** `roles/:name` and LIST `roles`: which names a certificate may carry, its key, usages, subject and validity. */
export function pathRoles(d: PkiDeps): PathDefinition[] {
  const fields = { name: field.path({ description: 'Role name.' }), ...roleFields() };
  const write = async ({
    storage,
    data,
    supplied,
  }: {
    storage: never;
    data: Record<string, unknown>;
    supplied: ReadonlySet<string>;
  }) => {
    const name = String(data.name);
    return d.locks.run(`role/${name}`, async () => {
      const role: RoleRecord = { ...DEFAULT_ROLE, ...(await roleStore.get(storage, name)) };
      for (const key of Object.keys(DEFAULT_ROLE))
        if (supplied.has(key) && data[key] !== undefined) (role as unknown as Record<string, unknown>)[key] = data[key];
      // A new key type without key_bits takes that type's default size, as established.
      if (supplied.has('key_type') && !supplied.has('key_bits')) role.key_bits = 0;
      checkRole(role);
      await roleStore.put(storage, name, role);
      return { data: { ...role } };
    });
  };
  return [
    definePath({
      pattern: 'roles/',
      fields: {},
      operations: {
        list: {
          summary: 'List the roles.',
          handler: async ({ storage }) => ({ data: { keys: await roleStore.list(storage) } }),
        },
      },
      help: { synopsis: 'List the roles.', description: '404 when there are none.' },
    }),
    definePath({
      pattern: 'roles/:name',
      fields,
      existenceCheck: async ({ storage, data }) => (await roleStore.get(storage, data.name)) !== undefined,
      operations: {
        create: { summary: 'Create the role.', handler: async (c) => write(c as never) },
        update: { summary: 'Update the role.', handler: async (c) => write(c as never) },
        read: {
          summary: 'Read the role.',
          handler: async ({ storage, data }) => {
            const role = await roleStore.get(storage, data.name);
            if (!role) throw new NotFoundError('');
            return { data: { ...role } };
          },
        },
        delete: {
          summary: 'Delete the role.',
          handler: async ({ storage, data }) => {
            await roleStore.delete(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage a role.',
        description: 'Certificates are issued against a role at issue/:name and sign/:name.',
      },
    }),
  ];
}
