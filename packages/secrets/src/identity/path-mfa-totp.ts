import type { TotpMethod } from '../core/identity/index.js';
import { encodeBase32NoPadding } from '../framework/base32.js';
import { definePath, field } from '../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../logical/errors.js';
import type { LogicalResponse } from '../logical/response.js';
import type { IdentityDeps } from './deps.js';
import { qrBarcode, totpUrl } from './mfa-secret.js';

const settings = {
  method_name: field.string({ description: 'Unique name of the method.' }),
  issuer: field.string({ description: 'Issuer shown by authenticator apps (required).' }),
  period: field.durationSeconds({ description: 'Code period in seconds.', default: 30 }),
  key_size: field.int({ description: 'Secret size in bytes.', default: 20 }),
  qr_size: field.int({ description: 'QR code width in pixels; 0 = none.', default: 200 }),
  algorithm: field.string({ description: '`SHA1`, `SHA256` or `SHA512`.', default: 'SHA1' }),
  digits: field.int({ description: '6 or 8.', default: 6 }),
  skew: field.int({ description: 'Periods of tolerance, 0 or 1.', default: 1 }),
  max_validation_attempts: field.int({ description: 'Attempts before the code is refused.', default: 5 }),
};

type Settings = { [K in keyof typeof settings]: unknown };

const fail = (message: string) => new InvalidRequestError(message);

function planMethod(d: IdentityDeps, data: Settings, current: TotpMethod | undefined): TotpMethod {
  const issuer = (data.issuer as string | undefined) || current?.issuer;
  if (!issuer) throw fail('issuer must be set');
  const algorithm = data.algorithm as string;
  if (algorithm !== 'SHA1' && algorithm !== 'SHA256' && algorithm !== 'SHA512') {
    throw fail(`unrecognized algorithm ${JSON.stringify(algorithm)}`);
  }
  if (data.digits !== 6 && data.digits !== 8) throw fail('digits can only be 6 or 8');
  if (data.skew !== 0 && data.skew !== 1) throw fail('skew can only be 0 or 1');
  const name = (data.method_name as string | undefined) ?? current?.method_name ?? '';
  const holder = d.store.methods().find((m) => name !== '' && m.method_name === name);
  if (holder && holder.id !== current?.id) throw fail('method name already in use');
  return {
    id: current?.id ?? d.store.newId(),
    method_name: name,
    issuer,
    period: data.period as number,
    key_size: data.key_size as number,
    qr_size: data.qr_size as number,
    algorithm,
    digits: data.digits,
    skew: data.skew,
    max_validation_attempts: data.max_validation_attempts as number,
    namespace_id: d.store.namespaceId,
  };
}

const methodData = (m: TotpMethod) => ({ ...m, name: m.method_name, type: 'totp', namespace_path: '' });

function requireMethod(d: IdentityDeps, id: string | undefined): TotpMethod {
  if (!id) throw fail('missing method ID');
  const method = d.store.method(id);
  if (!method) throw fail(`configuration for method ID ${JSON.stringify(id)} does not exist`);
  return method;
}

/** Gives `entityId` a secret for `methodId`, unless it has one (then a warning, nothing regenerated). */
async function generate(d: IdentityDeps, methodId: string | undefined, entityId: string): Promise<LogicalResponse> {
  const method = requireMethod(d, methodId);
  return d.store.write(async () => {
    const entity = d.store.entity(entityId);
    if (!entity) throw fail('invalid entity ID');
    if (entity.mfa_secrets[method.id]) {
      return { data: null, warnings: [`Entity already has a secret for MFA method "${method.method_name}"`] };
    }
    const secret = encodeBase32NoPadding(d.random(method.key_size));
    await d.store.saveEntity({
      ...entity,
      mfa_secrets: { ...entity.mfa_secrets, [method.id]: { method_id: method.id, secret } },
    });
    const url = totpUrl(method, entity.id, secret);
    return { data: { barcode: await qrBarcode(url, method.qr_size), url } };
  });
}

/** `mfa/method/totp...`: login-MFA TOTP methods and the secrets entities hold for them. */
export function pathMfaTotp(d: IdentityDeps) {
  const methodId = field.string({ description: 'MFA method id.' });
  const entityId = field.string({ description: 'Entity id.' });
  const help = (synopsis: string) => ({ synopsis, description: 'TOTP login-MFA methods and entity secrets.' });
  return [
    definePath({
      pattern: 'mfa/method/totp/admin-generate',
      fields: { method_id: methodId, entity_id: entityId },
      operations: {
        update: {
          summary: 'Generate a secret for an entity.',
          handler: async ({ data }) => {
            if (!data.entity_id) throw fail('missing entityID');
            return generate(d, data.method_id, data.entity_id);
          },
        },
      },
      help: help('Generate a TOTP secret for an entity.'),
    }),
    definePath({
      pattern: 'mfa/method/totp/generate',
      fields: { method_id: methodId },
      operations: {
        update: {
          summary: 'Generate a secret for the caller’s entity.',
          handler: async ({ req, data }) => {
            if (!req.caller?.entityId) throw fail('no entity attached to the request');
            return generate(d, data.method_id, req.caller.entityId);
          },
        },
      },
      help: help('Generate a TOTP secret for the caller.'),
    }),
    definePath({
      pattern: 'mfa/method/totp/admin-destroy',
      fields: { method_id: methodId, entity_id: entityId },
      operations: {
        update: {
          summary: 'Remove an entity’s secret for a method.',
          handler: async ({ data }) => {
            if (!data.entity_id) throw fail('missing entity ID');
            const method = requireMethod(d, data.method_id);
            await d.store.write(async () => {
              const entity = d.store.entity(data.entity_id ?? '');
              if (!entity) throw fail('invalid entity ID');
              const { [method.id]: _gone, ...rest } = entity.mfa_secrets;
              await d.store.saveEntity({ ...entity, mfa_secrets: rest });
            });
            return undefined;
          },
        },
      },
      help: help('Destroy an entity’s TOTP secret.'),
    }),
    definePath({
      pattern: 'mfa/method/totp/',
      fields: {},
      operations: {
        list: {
          summary: 'List TOTP methods.',
          handler: async () => {
            const methods = d.store.methods();
            return {
              data: {
                keys: methods.map((m) => m.id),
                key_info: Object.fromEntries(methods.map((m) => [m.id, methodData(m)])),
              },
            };
          },
        },
      },
      help: help('List TOTP methods.'),
    }),
    definePath({
      pattern: 'mfa/method/totp',
      fields: settings,
      operations: {
        update: {
          summary: 'Create a TOTP method.',
          handler: async ({ data }) => {
            const method = planMethod(d, data, undefined);
            await d.store.saveMethod(method);
            return { data: { method_id: method.id } };
          },
        },
      },
      help: help('Create a TOTP method.'),
    }),
    definePath({
      pattern: 'mfa/method/totp/:method_id',
      fields: { method_id: field.path({ description: 'MFA method id.' }), ...settings },
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
