import { encodeBase32NoPadding } from '../framework/base32.js';
import { definePath, field } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { LogicalResponse } from '../logical/response.js';
import type { IdentityDeps } from './deps.js';
import { qrBarcode, totpUrl } from './mfa-secret.js';
import { requireMethod } from './path-mfa-totp-methods.js';

/** Gives `entityId` a secret for `methodId`, unless it has one (then a warning, nothing regenerated). */
async function generate(d: IdentityDeps, methodId: string | undefined, entityId: string): Promise<LogicalResponse> {
  const method = requireMethod(d, methodId);
  return d.store.write(async () => {
    const entity = d.store.entity(entityId);
    if (!entity) throw new InvalidRequestError('invalid entity ID');
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

/** Removes `entityId`'s secret for `methodId` (none is not an error). */
async function destroy(d: IdentityDeps, methodId: string | undefined, entityId: string): Promise<undefined> {
  const method = requireMethod(d, methodId);
  await d.store.write(async () => {
    const entity = d.store.entity(entityId);
    if (!entity) throw new InvalidRequestError('invalid entity ID');
    const { [method.id]: _gone, ...rest } = entity.mfa_secrets;
    await d.store.saveEntity({ ...entity, mfa_secrets: rest });
  });
  return undefined;
}

const methodId = field.string({ description: 'MFA method id.' });
const entityId = field.string({ description: 'Entity id.' });
const help = (synopsis: string) => ({ synopsis, description: 'TOTP secrets entities hold for login MFA.' });

/** `mfa/method/totp/{generate,admin-generate,admin-destroy}`: the secrets entities hold for a method. */
export function pathMfaTotpSecrets(d: IdentityDeps) {
  return [
    definePath({
      pattern: 'mfa/method/totp/admin-generate',
      fields: { method_id: methodId, entity_id: entityId },
      operations: {
        update: {
          summary: 'Generate a secret for an entity.',
          handler: async ({ data }) => {
            if (!data.entity_id) throw new InvalidRequestError('missing entityID');
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
            if (!req.caller?.entityId) throw new InvalidRequestError('no entity attached to the request');
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
            if (!data.entity_id) throw new InvalidRequestError('missing entity ID');
            return destroy(d, data.method_id, data.entity_id);
          },
        },
      },
      help: help('Destroy an entity’s TOTP secret.'),
    }),
  ];
}
