import type { TotpMethod } from '../core/identity/index.js';
import { definePath, type FieldValues, field } from '../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../logical/errors.js';
import type { IdentityDeps } from './deps.js';

const methodFields = {
  method_name: field.string({ description: 'Unique name of the method.' }),
  issuer: field.string({ description: 'Issuer shown by authenticator apps (required).' }),
  period: field.durationSeconds({ description: 'Code period in seconds.', default: 30 }),
  key_size: field.int({ description: 'Secret size in bytes.', default: 20 }),
  qr_size: field.int({ description: 'QR code width in pixels; 0 = none.', default: 200 }),
  algorithm: field.enum({ description: 'Hash of the codes.', values: ['SHA1', 'SHA256', 'SHA512'], default: 'SHA1' }),
  digits: field.int({ description: '6 or 8.', default: 6 }),
  skew: field.int({ description: 'Periods of tolerance, 0 or 1.', default: 1 }),
  max_validation_attempts: field.int({ description: 'Attempts before the code is refused.', default: 5 }),
};

/** The method a create or update leaves: `current` is the method being updated. */
function planMethod(d: IdentityDeps, data: FieldValues<typeof methodFields>, current?: TotpMethod): TotpMethod {
  const issuer = data.issuer || current?.issuer;
  if (!issuer) throw new InvalidRequestError('issuer must be set');
  if (data.digits !== 6 && data.digits !== 8) throw new InvalidRequestError('digits can only be 6 or 8');
  if (data.skew !== 0 && data.skew !== 1) throw new InvalidRequestError('skew can only be 0 or 1');
  const name = data.method_name ?? current?.method_name ?? '';
  const holder = d.store.methods().find((m) => name !== '' && m.method_name === name);
  if (holder && holder.id !== current?.id) throw new InvalidRequestError('method name already in use');
  const { period, key_size, qr_size, algorithm, digits, skew, max_validation_attempts } = data;
  return {
    id: current?.id ?? d.store.newId(),
    method_name: name,
    issuer,
    period,
    key_size,
    qr_size,
    algorithm,
    digits,
    skew,
    max_validation_attempts,
    namespace_id: d.store.namespaceId,
  };
}

const methodData = (m: TotpMethod) => ({ ...m, name: m.method_name, type: 'totp', namespace_path: '' });

/** The method with id `id`; 400 in the established wording when there is none. */
export function requireMethod(d: IdentityDeps, id: string | undefined): TotpMethod {
  if (!id) throw new InvalidRequestError('missing method ID');
  const method = d.store.method(id);
  if (!method) throw new InvalidRequestError(`configuration for method ID ${JSON.stringify(id)} does not exist`);
  return method;
}

const help = (synopsis: string) => ({ synopsis, description: 'TOTP login-MFA methods.' });

/** `mfa/method/totp`, `mfa/method/totp/` and `mfa/method/totp/:method_id`: the login-MFA TOTP methods. */
export function pathMfaTotpMethods(d: IdentityDeps) {
  return [
    definePath({
      pattern: 'mfa/method/totp/',
      fields: {},
      operations: {
        list: {
          summary: 'List TOTP methods.',
          handler: async () => {
            const methods = d.store.methods();
            const keyInfo = Object.fromEntries(methods.map((m) => [m.id, methodData(m)]));
            return { data: { keys: methods.map((m) => m.id), key_info: keyInfo } };
          },
        },
      },
      help: help('List TOTP methods.'),
    }),
    definePath({
      pattern: 'mfa/method/totp',
      fields: methodFields,
      operations: {
        update: {
          summary: 'Create a TOTP method.',
          handler: async ({ data }) => {
            const method = planMethod(d, data);
            await d.store.saveMethod(method);
            return { data: { method_id: method.id } };
          },
        },
      },
      help: help('Create a TOTP method.'),
    }),
    definePath({
      pattern: 'mfa/method/totp/:method_id',
      fields: { method_id: field.path({ description: 'MFA method id.' }), ...methodFields },
      operations: {
        update: {
          summary: 'Update a TOTP method.',
          handler: async ({ data }) => {
            await d.store.saveMethod(planMethod(d, data, requireMethod(d, data.method_id)));
            return undefined;
          },
        },
        read: {
          summary: 'Read a TOTP method.',
          handler: async ({ data }) => {
            const method = d.store.method(data.method_id);
            if (!method) throw new NotFoundError('');
            return { data: methodData(method) };
          },
        },
        delete: {
          summary: 'Delete a TOTP method.',
          handler: async ({ data }) => {
            await d.store.deleteMethod(data.method_id);
            return undefined;
          },
        },
      },
      help: help('Read, update or delete a TOTP method.'),
    }),
  ];
}
