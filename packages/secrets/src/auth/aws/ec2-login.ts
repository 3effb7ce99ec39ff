import { createHash } from 'node:crypto';
import type { Clock, Random } from '@ward/base';
import { randomUuid } from '@ward/base';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { awsAuthStore } from './aws-auth-store.js';
import { AWS_PUBLIC_CERTIFICATE_IDENTITY, AWS_PUBLIC_CERTIFICATE_PKCS7 } from './aws-public-certificate.js';
import { checkInstanceBounds, describeInstance } from './ec2-instance.js';
import type { AuthenticatedLogin } from './iam-login.js';
import { type IdentityDocument, verifyPkcs7, verifySignedDocument } from './identity-document.js';
import { roleArnOfInstanceProfile } from './resolve-principal.js';
import { type RoleTag, verifyRoleTag } from './role-tag.js';
import { configForAccount } from './sts-roles.js';

export interface Ec2LoginFields {
  role?: string;
  pkcs7?: string;
  identity?: string;
  signature?: string;
  nonce?: string;
}

export interface Ec2Deps {
  clock: Clock;
  random: Random;
  /** The mount's maximum lease TTL: how long an instance's nonce is remembered without a role max. */
  maxTtlSeconds: () => number;
}

/** The certificates of a kind: AWS's built-in one and those of `config/certificate`. */
async function certificates(storage: Storage, type: 'pkcs7' | 'identity'): Promise<string[]> {
  const pems = [type === 'pkcs7' ? AWS_PUBLIC_CERTIFICATE_PKCS7 : AWS_PUBLIC_CERTIFICATE_IDENTITY];
  for (const name of await awsAuthStore.certificates(storage)) {
    const cert = await awsAuthStore.certificate(storage, name);
    if (cert?.type === type) pems.push(cert.aws_public_cert);
  }
  return pems;
}

/**
 * An ec2 login: the instance identity document, signed by AWS, names the instance; EC2 must
 * know it as running and it must satisfy the role's bounds. The first login of an instance
 * stores its nonce; later ones must present it (unless reauthentication is disallowed).
 */
export async function ec2Login(storage: Storage, fields: Ec2LoginFields, d: Ec2Deps): Promise<AuthenticatedLogin> {
  let doc: IdentityDocument;
  if (fields.pkcs7) doc = verifyPkcs7(fields.pkcs7, await certificates(storage, 'pkcs7'));
  else if (fields.identity && fields.signature)
    doc = verifySignedDocument(fields.identity, fields.signature, await certificates(storage, 'identity'));
  else throw new InvalidRequestError('either pkcs7 or a tuple containing identity and signature must be supplied');
  const config = await configForAccount(storage, await awsAuthStore.client(storage), doc.accountId, d.clock);
  const instance = await describeInstance(config, doc.region, doc.instanceId);
  const roleName = (fields.role || doc.imageId).toLowerCase();
  const role = await awsAuthStore.role(storage, roleName);
  if (!role) throw new InvalidRequestError(`entry for role ${JSON.stringify(roleName)} not found`);
  if (role.auth_type !== 'ec2') throw new InvalidRequestError(`auth method ec2 not allowed for role ${roleName}`);
  await checkInstanceBounds(
    role,
    {
      instanceId: doc.instanceId,
      amiId: doc.imageId,
      accountId: doc.accountId,
      region: doc.region,
      vpcId: instance.vpcId,
      subnetId: instance.subnetId,
      instanceProfileArn: instance.instanceProfileArn,
      tags: instance.tags,
    },
    () => roleArnOfInstanceProfile(config, instance.instanceProfileArn),
  );
  let tag: RoleTag | undefined;
  if (role.role_tag) {
    const value = instance.tags.get(role.role_tag);
    if (!value)
      throw new PermissionDeniedError(`missing tag with key ${JSON.stringify(role.role_tag)} on the instance`);
    tag = verifyRoleTag(role, roleName, value);
    if (tag.instanceId && tag.instanceId !== doc.instanceId)
      throw new PermissionDeniedError('role tag is for another instance');
    const denied = await awsAuthStore.denyListed(storage, tagKey(value));
    if (denied) throw new PermissionDeniedError('role tag is deny-listed');
  }
  const nonce = await checkNonce(storage, doc, roleName, fields.nonce, {
    disallowReauthentication: role.disallow_reauthentication || (tag?.disallowReauthentication ?? false),
    allowInstanceMigration: role.allow_instance_migration || (tag?.allowInstanceMigration ?? false),
    ttlSeconds: role.token.token_max_ttl || d.maxTtlSeconds(),
    d,
  });
  const identity = await awsAuthStore.identity(storage);
  const available: Record<string, string> = {
    account_id: doc.accountId,
    ami_id: doc.imageId,
    auth_type: 'ec2',
    instance_id: doc.instanceId,
    region: doc.region,
  };
  const metadata: Record<string, string> = { role: roleName, role_id: role.role_id };
  for (const name of identity.ec2_metadata) metadata[name] = available[name] ?? '';
  if (nonce) metadata.nonce = nonce;
  if (tag) metadata.role_tag_max_ttl = String(tag.maxTtl);
  const aliasOf = new Map([
    ['role_id', role.role_id],
    ['instance_id', doc.instanceId],
    ['image_id', doc.imageId],
  ]);
  return {
    roleName,
    role,
    aliasName: aliasOf.get(identity.ec2_alias) ?? role.role_id,
    displayName: doc.instanceId,
    metadata,
    ...(tag && tag.policies.length > 0 ? { policies: tag.policies } : {}),
    ...(tag?.maxTtl ? { maxTtl: tag.maxTtl } : {}),
  };
}

/** The storage key of a role tag (its value has `:` and base64 in it). */
export const tagKey = (value: string) => createHash('sha256').update(value).digest('hex');

/** Checks or records the instance's nonce; returns the nonce to hand back ('' when none is kept). */
async function checkNonce(
  storage: Storage,
  doc: IdentityDocument,
  roleName: string,
  given: string | undefined,
  o: { disallowReauthentication: boolean; allowInstanceMigration: boolean; ttlSeconds: number; d: Ec2Deps },
): Promise<string> {
  const now = o.d.clock.now();
  const entry = await awsAuthStore.accessListEntry(storage, doc.instanceId);
  if (entry && entry.expiration_time_ms > now) {
    if (o.disallowReauthentication || entry.disallow_reauthentication)
      throw new PermissionDeniedError('reauthentication is disabled');
    const pendingNewer = Date.parse(doc.pendingTime) > Date.parse(entry.pending_time);
    if (!(o.allowInstanceMigration && pendingNewer)) {
      if (Date.parse(doc.pendingTime) < Date.parse(entry.pending_time))
        throw new PermissionDeniedError('instance meta-data is older than the one used to log in before');
      if (!given || given !== entry.client_nonce) throw new PermissionDeniedError('client nonce mismatch');
    }
  }
  const nonce = o.disallowReauthentication ? '' : given || entry?.client_nonce || randomUuid(o.d.random);
  await awsAuthStore.putAccessListEntry(storage, doc.instanceId, {
    role: roleName,
    client_nonce: nonce,
    creation_time_ms: now,
    pending_time: doc.pendingTime,
    expiration_time_ms: now + o.ttlSeconds * 1000,
    disallow_reauthentication: o.disallowReauthentication,
  });
  return nonce;
}
