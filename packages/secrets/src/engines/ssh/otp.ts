import { createHash } from 'node:crypto';
import type { Random } from '@ward/base';
import { definePath, field, type PathDefinition, type SecretType } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { contains, parseCidrList, requireIp } from './cidrs.js';
import { requireRole } from './path-roles.js';
import { otps, roles, type SshRole, zeroAddress } from './stores.js';

/** The secret type of an OTP's lease (the established name). */
export const OTP_SECRET = 'secret_otp_type';

/** The text `ssh-helper` sends to check that it reaches the server. */
const VERIFY_ECHO = 'verify-echo-request';

/** OTPs are kept by their SHA-256 only: a read of storage does not reveal a usable one. */
const digestOf = (otp: string) => createHash('sha256').update(otp).digest('hex');

function uuid(random: Random): string {
  const hex = Buffer.from(random.bytes(16)).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether an OTP role serves `ip`: in its `cidr_list` (or any address for a zero-address role), outside `exclude_cidr_list`. */
function servesIp(role: SshRole, name: string, ip: string, zero: readonly string[]): boolean {
  if (contains(parseCidrList(role.exclude_cidr_list, 'exclude_cidr_list'), ip)) return false;
  if (zero.includes(name)) return true;
  return role.cidr_list !== '' && contains(parseCidrList(role.cidr_list, 'cidr_list'), ip);
}

/** `creds/:role`: a one-time password for `username` at `ip`, under a lease; revoking it removes the OTP. */
export function pathCreds(random: Random): PathDefinition {
  return definePath({
    pattern: 'creds/:role',
    fields: {
      role: field.path({ description: 'Name of the OTP role.' }),
      username: field.string({ description: 'User on the host (default: the role’s `default_user`).', default: '' }),
      ip: field.string({ description: 'Address of the host.', default: '' }),
    },
    operations: {
      update: {
        summary: 'Create a one-time password for a host.',
        handler: async ({ storage, data }) => {
          const role = await requireRole(storage, data.role);
          if (role.key_type !== 'otp') throw new InvalidRequestError(`role "${data.role}" is not an OTP role`);
          const ip = requireIp(data.ip);
          const username = data.username || role.default_user;
          const allowed = role.allowed_users.split(',').map((s) => s.trim());
          if (username !== role.default_user && role.allowed_users !== '*' && !allowed.includes(username)) {
            throw new InvalidRequestError('Username is not present is allowed users list');
          }
          if (!servesIp(role, data.role, ip, (await zeroAddress.get(storage)) ?? [])) {
            throw new InvalidRequestError(`IP "${ip}" does not belong to role "${data.role}"`);
          }
          const key = uuid(random);
          const digest = digestOf(key);
          await otps.put(storage, digest, { username, ip, role_name: data.role });
          return {
            secret: {
              type: OTP_SECRET,
              data: { ip, key, key_type: 'otp', port: role.port, username },
              internal: { otp_digest: digest },
            },
          };
        },
      },
    },
    help: { synopsis: 'Create a one-time SSH password.', description: 'Checked once by `verify` (the host’s helper).' },
  });
}

export function otpSecret(): SecretType {
  return {
    type: OTP_SECRET,
    async revoke({ storage, internal }) {
      await otps.delete(storage, String(internal.otp_digest));
    },
  };
}

/** `verify`: checks an OTP once (the host's `ssh-helper` asks); the OTP is used up. */
export function pathVerify(): PathDefinition {
  return definePath({
    pattern: 'verify',
    fields: { otp: field.string({ description: 'The one-time password.', required: true }) },
    operations: {
      update: {
        summary: 'Verify and use up a one-time password.',
        handler: async ({ storage, data }) => {
          if (data.otp === VERIFY_ECHO) return { data: { message: 'vault-echo' } };
          const digest = digestOf(data.otp);
          const entry = await otps.get(storage, digest);
          if (!entry) throw new InvalidRequestError('OTP not found');
          await otps.delete(storage, digest);
          return { data: { username: entry.username, ip: entry.ip, role_name: entry.role_name } };
        },
      },
    },
    help: { synopsis: 'Verify a one-time password.', description: 'Each OTP verifies once.' },
  });
}

/** `lookup`: the OTP roles that serve an address. */
export function pathLookup(): PathDefinition {
  return definePath({
    pattern: 'lookup',
    fields: { ip: field.string({ description: 'The address.', default: '' }) },
    operations: {
      update: {
        summary: 'List the roles that serve an IP address.',
        handler: async ({ storage, data }) => {
          const ip = requireIp(data.ip);
          const zero = (await zeroAddress.get(storage)) ?? [];
          const found: string[] = [];
          for (const name of await roles.list(storage)) {
            const role = await roles.get(storage, name);
            if (role?.key_type === 'otp' && servesIp(role, name, ip, zero)) found.push(name);
          }
          return { data: { roles: found } };
        },
      },
    },
    help: { synopsis: 'Find the roles of an address.', description: 'Zero-address roles serve every address.' },
  });
}

/** `config/zeroaddress`: OTP roles that serve every address. */
export function pathZeroAddress(): PathDefinition {
  return definePath({
    pattern: 'config/zeroaddress',
    fields: { roles: field.commaStrings({ description: 'Comma-separated role names.' }) },
    operations: {
      read: {
        summary: 'Read the zero-address roles.',
        handler: async ({ storage }) => {
          const list = await zeroAddress.get(storage);
          return list ? { data: { roles: list } } : undefined;
        },
      },
      update: {
        summary: 'Set the zero-address roles.',
        handler: async ({ storage, data }) => {
          const list = data.roles ?? [];
          if (list.length === 0) throw new InvalidRequestError('Missing roles');
          for (const name of list) {
            const role = await roles.get(storage, name);
            if (!role) throw new InvalidRequestError(`Role "${name}" does not exist`);
          }
          await zeroAddress.put(storage, list);
          return undefined;
        },
      },
      delete: {
        summary: 'Clear the zero-address roles.',
        handler: async ({ storage }) => {
          await zeroAddress.delete(storage);
          return undefined;
        },
      },
    },
    help: { synopsis: 'Configure zero-address roles.', description: 'A zero-address role serves any IP.' },
  });
}
