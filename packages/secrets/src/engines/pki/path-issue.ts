import { definePath, type FieldValues, field, type PathDefinition, type SecretType } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { type EntityFacts, fillTemplate, isTemplate } from '../../logical/identity-template.js';
import type { Storage } from '../../logical/storage.js';
import { certificateFields } from './ca-fields.js';
import type { PkiDeps } from './deps.js';
import { resolveIssuer } from './issuers.js';
import { checkKeyParams, cryptoKeyPair, newPrivateKey, signingAlgorithm } from './keys.js';
import { csrNames, issueLeaf, type LeafRequest, requireIssuerCanSign } from './leaf.js';
import { parseOtherSans } from './other-sans.js';
import { revokeSerial } from './revocation.js';
import { DEFAULT_ROLE, type RoleRecord, roleStore } from './role-store.js';
import { parseCsr } from './x509.js';

/** The lease type of certificates issued by roles with `generate_lease`: revoking the lease revokes the certificate. */
export function certificateSecretType(d: PkiDeps): SecretType {
  return {
    type: 'pki',
    revoke: async ({ storage, internal }) => {
      await revokeSerial(d, storage, String(internal.serial_number ?? ''));
    },
  };
}

const issueFields = {
  ...certificateFields,
  role: field.path({ description: 'The role to issue against.' }),
  csr: field.string({ description: 'sign: the PEM certificate request.', default: '' }),
  remove_roots_from_chain: field.bool({ description: 'Leave self-signed roots out of ca_chain.', default: false }),
  key_usage: field.commaStrings({ description: 'sign-verbatim: key usages.' }),
  ext_key_usage: field.commaStrings({ description: 'sign-verbatim: extended key usages.' }),
  ext_key_usage_oids: field.commaStrings({ description: 'sign-verbatim: extended key usage OIDs.' }),
};
type IssueData = FieldValues<typeof issueFields> & { issuer_ref?: string };
type Mode = 'issue' | 'sign' | 'sign-verbatim';

async function roleOf(storage: Storage, name: string, mode: Mode, data: IssueData): Promise<RoleRecord> {
  if (mode === 'sign-verbatim') {
    const base = name ? await roleStore.get(storage, name) : undefined;
    if (name && !base) throw new InvalidRequestError(`unknown role: ${name}`);
    const role: RoleRecord = {
      ...DEFAULT_ROLE,
      ...base,
      allow_any_name: true,
      key_type: 'any',
      enforce_hostnames: false,
    };
    if (data.key_usage) role.key_usage = data.key_usage;
    if (data.ext_key_usage) role.ext_key_usage = data.ext_key_usage;
    if (data.ext_key_usage_oids) role.ext_key_usage_oids = data.ext_key_usage_oids;
    return role;
  }
  const role = await roleStore.get(storage, name);
  if (!role) throw new InvalidRequestError(`unknown role: ${name}`);
  return role;
}

/**
 * The role with its templated `allowed_domains` filled in from the caller's entity, as established
 * with `allowed_domains_template`; a template the caller's identity cannot fill allows nothing.
 * A filled value holding `*` allows nothing either (as OpenBao does by default): an entity name or
 * metadata value must not become a glob.
 */
function withTemplates(role: RoleRecord, entity: EntityFacts | undefined): RoleRecord {
  if (!role.allowed_domains_template) return role;
  const allowed = role.allowed_domains.flatMap((domain) => {
    if (!isTemplate(domain)) return [domain];
    const filled = fillTemplate(domain, entity, { blocked: ['*'] });
    return filled === undefined ? [] : [filled];
  });
  return { ...role, allowed_domains: allowed };
}

async function handle(d: PkiDeps, storage: Storage, data: IssueData, mode: Mode, entity: EntityFacts | undefined) {
  const role = withTemplates(await roleOf(storage, data.role ?? '', mode, data), entity);
  const issuer = await resolveIssuer(storage, data.issuer_ref ?? role.issuer_ref);
  requireIssuerCanSign(issuer);
  const req: LeafRequest = {
    commonName: data.common_name,
    altNames: data.alt_names,
    ipSans: data.ip_sans,
    uriSans: data.uri_sans,
    otherSans: parseOtherSans(data.other_sans),
    ttl: data.ttl,
    notAfter: data.not_after,
    excludeCnFromSans: data.exclude_cn_from_sans,
    format: data.format,
    privateKeyFormat: data.private_key_format,
    publicKey: undefined as never,
  };
  if (mode === 'issue') {
    if (role.key_type === 'any')
      throw new InvalidRequestError('role key type "any" not allowed for issuing certificates, only signing');
    const { type, bits } = checkKeyParams(role.key_type, role.key_bits);
    req.privateKeyPem = await newPrivateKey(type, bits);
    req.publicKey = (await cryptoKeyPair(req.privateKeyPem, signingAlgorithm(type, bits))).publicKey;
  } else {
    if (!data.csr) throw new InvalidRequestError('"csr" is empty');
    const csr = await parseCsr(data.csr);
    req.publicKey = csr.publicKey;
    const asked = csrNames(csr);
    if (mode === 'sign-verbatim') {
      req.verbatimSubject = csr.subjectName.toJSON();
      req.altNames = [...asked.dns, ...data.alt_names];
      req.ipSans = [...asked.ips, ...data.ip_sans];
      req.uriSans = [...asked.uris, ...data.uri_sans];
    } else {
      if (role.key_type !== 'any') {
        const algorithm = csr.publicKey.algorithm.name;
        const type = algorithm === 'ECDSA' ? 'ec' : algorithm === 'Ed25519' ? 'ed25519' : 'rsa';
        if (type !== role.key_type) throw new InvalidRequestError(`role requires keys of type ${role.key_type}`);
      }
      if (!req.commonName && role.use_csr_common_name) req.commonName = asked.commonName;
      if (role.use_csr_sans) {
        req.altNames = [...new Set([...req.altNames, ...asked.dns])];
        req.ipSans = [...new Set([...req.ipSans, ...asked.ips])];
        req.uriSans = [...new Set([...req.uriSans, ...asked.uris])];
      }
    }
  }
  return issueLeaf(d, storage, issuer, role, req);
}

/**
 * `issue/:role`, `sign/:role`, `sign-verbatim[/:role]`, and the same under `issuer/:issuer_ref/`:
 * a certificate for a new key (answered once, not kept) or for a CSR's key.
 */
export function pathIssue(d: PkiDeps): PathDefinition[] {
  const issuerRef = { issuer_ref: field.path({ description: 'The issuer to sign with (id, name or default).' }) };
  const noRole = {
    ...issueFields,
    role: field.string({ description: 'Optional role for TTLs and usages.', default: '' }),
  };
  const make = (pattern: string, mode: Mode, fields: object) =>
    definePath({
      pattern,
      fields: fields as typeof issueFields,
      operations: {
        update: {
          summary: mode === 'issue' ? 'Issue a certificate and its private key.' : 'Sign a certificate request.',
          handler: async ({ req, storage, data }) => handle(d, storage, data as IssueData, mode, req.caller?.entity),
        },
      },
      help: {
        synopsis: mode === 'issue' ? 'Issue a certificate.' : 'Sign a CSR.',
        description: 'With the role’s generate_lease, the certificate comes under a lease; no_store keeps no copy.',
      },
    });
  return [
    make('issue/:role', 'issue', issueFields),
    make('sign/:role', 'sign', issueFields),
    make('sign-verbatim', 'sign-verbatim', noRole),
    make('sign-verbatim/:role', 'sign-verbatim', issueFields),
    make('issuer/:issuer_ref/issue/:role', 'issue', { ...issueFields, ...issuerRef }),
    make('issuer/:issuer_ref/sign/:role', 'sign', { ...issueFields, ...issuerRef }),
    make('issuer/:issuer_ref/sign-verbatim', 'sign-verbatim', { ...noRole, ...issuerRef }),
    make('issuer/:issuer_ref/sign-verbatim/:role', 'sign-verbatim', { ...issueFields, ...issuerRef }),
  ];
}
