import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { checkUrls, URL_FIELDS } from './aia.js';
import type { PkiDeps } from './deps.js';
import { allIssuers, chainOf, resolveIssuer } from './issuers.js';
import { type IssuerAia, type IssuerRecord, pkiStore } from './pki-store.js';
import { rebuildCrl } from './revocation.js';
import { crypto, x509 } from './x509.js';

const USAGES = new Set(['read-only', 'issuing-certificates', 'crl-signing', 'ocsp-signing']);
const BEHAVIORS = ['err', 'truncate', 'permit'] as const;

async function issuerView(storage: Storage, issuer: IssuerRecord) {
  const urls = issuer.aia ?? EMPTY_AIA;
  return {
    issuer_id: issuer.issuer_id,
    issuer_name: issuer.issuer_name,
    key_id: issuer.key_id,
    certificate: issuer.certificate,
    ca_chain: await chainOf(storage, issuer),
    manual_chain: issuer.manual_chain.length ? issuer.manual_chain : null,
    leaf_not_after_behavior: issuer.leaf_not_after_behavior,
    usage: [...issuer.usage].sort().join(','),
    revocation_signature_algorithm: '',
    revoked: issuer.revoked,
    revocation_time: issuer.revocation_time,
    revocation_time_rfc3339: issuer.revocation_time ? new Date(issuer.revocation_time * 1000).toISOString() : '',
    serial_number: issuer.serial_number,
    issuing_certificates: urls.issuing_certificates,
    crl_distribution_points: urls.crl_distribution_points,
    ocsp_servers: urls.ocsp_servers,
    delta_crl_distribution_points: urls.delta_crl_distribution_points ?? [],
    enable_aia_url_templating: urls.enable_aia_url_templating,
  };
}

const EMPTY_AIA: IssuerAia = {
  issuing_certificates: [],
  crl_distribution_points: [],
  ocsp_servers: [],
  delta_crl_distribution_points: [],
  enable_aia_url_templating: false,
};

const ref = { issuer_ref: field.path({ description: 'The issuer (id, name or default).' }) };

/** `issuers` (LIST), `issuer/:ref` (read, update, delete), `issuer/:ref/revoke` and `config/issuers`. */
export function pathIssuers(d: PkiDeps): PathDefinition[] {
  const updateFields = {
    ...ref,
    issuer_name: field.string({ description: 'A unique name for the issuer.' }),
    leaf_not_after_behavior: field.enum({ description: 'err, truncate or permit.', values: BEHAVIORS }),
    usage: field.commaStrings({ description: 'read-only, issuing-certificates, crl-signing, ocsp-signing.' }),
    manual_chain: field.commaStrings({ description: 'Issuer ids of the chain, overriding the one built.' }),
    issuing_certificates: field.commaStrings({ description: 'This issuer’s AIA issuer URLs (replace config/urls).' }),
    crl_distribution_points: field.commaStrings({ description: 'This issuer’s CRL distribution points.' }),
    ocsp_servers: field.commaStrings({ description: 'This issuer’s OCSP responder URLs.' }),
    delta_crl_distribution_points: field.commaStrings({ description: 'This issuer’s delta CRL URLs (Freshest CRL).' }),
    enable_aia_url_templating: field.bool({
      description: 'The URLs may use {{issuer_id}}, {{cluster_path}}, {{cluster_aia_path}} (config/cluster).',
    }),
  };
  return [
    definePath({
      pattern: 'issuers/',
      fields: {},
      operations: {
        list: {
          summary: 'List the issuers.',
          handler: async ({ storage }) => {
            const issuers = await allIssuers(storage);
            const { default: id } = await pkiStore.issuersConfig(storage);
            const key_info: Record<string, unknown> = {};
            for (const i of issuers)
              key_info[i.issuer_id] = {
                issuer_name: i.issuer_name,
                is_default: i.issuer_id === id,
                key_id: i.key_id,
                serial_number: i.serial_number,
              };
            return { data: { keys: issuers.map((i) => i.issuer_id), key_info } };
          },
        },
      },
      help: { synopsis: 'List the issuers.', description: 'Readable without a token, as established.' },
    }),
    definePath({
      pattern: 'issuer/:issuer_ref',
      fields: updateFields,
      operations: {
        read: {
          summary: 'Read an issuer.',
          handler: async ({ storage, data }) => ({
            data: await issuerView(storage, await resolveIssuer(storage, data.issuer_ref)),
          }),
        },
        update: {
          summary: 'Update an issuer.',
          handler: async ({ storage, data }) =>
            d.locks.run('issuers', async () => {
              const issuer = await resolveIssuer(storage, data.issuer_ref);
              if (data.issuer_name !== undefined && data.issuer_name !== issuer.issuer_name) {
                if (data.issuer_name && (await allIssuers(storage)).some((i) => i.issuer_name === data.issuer_name))
                  throw new InvalidRequestError(`issuer name already in use: ${data.issuer_name}`);
                issuer.issuer_name = data.issuer_name;
              }
              if (data.leaf_not_after_behavior) issuer.leaf_not_after_behavior = data.leaf_not_after_behavior;
              if (data.usage) {
                for (const u of data.usage) if (!USAGES.has(u)) throw new InvalidRequestError(`unknown usage ${u}`);
                issuer.usage = data.usage;
              }
              if (data.manual_chain)
                issuer.manual_chain = data.manual_chain.map((id) => (id === 'self' ? issuer.issuer_id : id));
              const aia: IssuerAia = { ...EMPTY_AIA, ...issuer.aia };
              if (data.enable_aia_url_templating !== undefined)
                aia.enable_aia_url_templating = data.enable_aia_url_templating;
              for (const name of URL_FIELDS) {
                const given = data[name];
                if (given !== undefined) aia[name] = given;
                checkUrls(name, aia[name] ?? [], aia.enable_aia_url_templating);
              }
              issuer.aia = aia;
              await pkiStore.putIssuer(storage, issuer);
              return { data: await issuerView(storage, issuer) };
            }),
        },
        delete: {
          summary: 'Delete an issuer (its key stays).',
          handler: async ({ storage, data }) =>
            d.locks.run('issuers', async () => {
              const issuer = await resolveIssuer(storage, data.issuer_ref).catch(() => undefined);
              if (!issuer) return undefined;
              await pkiStore.deleteIssuer(storage, issuer.issuer_id);
              await pkiStore.deleteCrl(storage, issuer.issuer_id);
              const config = await pkiStore.issuersConfig(storage);
              if (config.default === issuer.issuer_id)
                await pkiStore.putIssuersConfig(storage, { ...config, default: '' });
              return undefined;
            }),
        },
      },
      help: { synopsis: 'Manage an issuer.', description: 'An issuer is a CA certificate of the mount.' },
    }),
    definePath({
      pattern: 'issuer/:issuer_ref/revoke',
      fields: ref,
      operations: {
        update: {
          summary: 'Revoke an issuer: it stops issuing, and its parent on this mount lists it on its CRL.',
          handler: async ({ storage, data }) =>
            d.locks.run('issuers', async () => {
              const issuer = await resolveIssuer(storage, data.issuer_ref);
              if (!issuer.revoked) {
                issuer.revoked = true;
                issuer.revocation_time = Math.floor(d.clock.now() / 1000);
                await pkiStore.putIssuer(storage, issuer);
                await listOnParentCrl(d, storage, issuer);
              }
              return { data: await issuerView(storage, issuer) };
            }),
        },
      },
      help: { synopsis: 'Revoke an issuer.', description: 'It cannot be undone.' },
    }),
    definePath({
      pattern: 'config/issuers',
      fields: {
        default: field.string({ description: 'The default issuer (id or name).' }),
        default_follows_latest_issuer: field.bool({ description: 'Each new issuer becomes the default.' }),
      },
      operations: {
        read: {
          summary: 'Read the default issuer.',
          handler: async ({ storage }) => ({ data: { ...(await pkiStore.issuersConfig(storage)) } }),
        },
        update: {
          summary: 'Set the default issuer.',
          handler: async ({ storage, data }) => {
            const config = await pkiStore.issuersConfig(storage);
            if (data.default) config.default = (await resolveIssuer(storage, data.default)).issuer_id;
            if (data.default_follows_latest_issuer !== undefined)
              config.default_follows_latest_issuer = data.default_follows_latest_issuer;
            await pkiStore.putIssuersConfig(storage, config);
            return { data: { ...config } };
          },
        },
      },
      help: { synopsis: 'The default issuer.', description: 'Paths without an issuer use it.' },
    }),
  ];
}

/** Records a revoked issuer's certificate under the issuer on this mount that signed it, and rebuilds that CRL. */
async function listOnParentCrl(d: PkiDeps, storage: Storage, issuer: IssuerRecord): Promise<void> {
  const cert = new x509.X509Certificate(issuer.certificate);
  for (const parent of await allIssuers(storage)) {
    if (parent.issuer_id === issuer.issuer_id || !parent.key_id) continue;
    const parentCert = new x509.X509Certificate(parent.certificate);
    if (cert.issuer !== parentCert.subject) continue;
    if (!(await cert.verify({ publicKey: await parentCert.publicKey.export(crypto), signatureOnly: true }, crypto)))
      continue;
    await pkiStore.putCert(storage, issuer.serial_number, {
      certificate: issuer.certificate,
      revocation_time: issuer.revocation_time,
      issuer_id: parent.issuer_id,
      expiration: issuer.expiration,
    });
    await pkiStore.markRevoked(storage, issuer.serial_number);
    await rebuildCrl(d, storage, parent);
  }
}
