import { createHmac, timingSafeEqual } from 'node:crypto';
import { PermissionDeniedError } from '../../logical/errors.js';
import type { AwsRole } from './aws-auth-store.js';

const PREFIX = 'v1';

/** What a role tag grants: the role's policies narrowed, a shorter TTL, one instance. */
export interface RoleTag {
  nonce: string;
  role: string;
  policies: string[];
  maxTtl: number;
  instanceId: string;
  allowInstanceMigration: boolean;
  disallowReauthentication: boolean;
}

const mac = (key: string, text: string) =>
  createHmac('sha256', Buffer.from(key, 'base64')).update(text).digest('base64');

/** The tag value: `v1:<nonce>:r=…:p=…:t=…:i=…:m=…:d=…:<HMAC-SHA256 of what precedes, with the role's key>`. */
export function createRoleTag(role: AwsRole, tag: RoleTag): string {
  const body = [
    PREFIX,
    tag.nonce,
    `r=${tag.role}`,
    `p=${tag.policies.join(',')}`,
    `t=${tag.maxTtl}`,
    `i=${tag.instanceId}`,
    `m=${tag.allowInstanceMigration}`,
    `d=${tag.disallowReauthentication}`,
  ].join(':');
  return `${body}:${mac(role.hmac_key, body)}`;
}

/** Parses and authenticates a tag value with the role's key; 403 when it is forged or for another role. */
export function verifyRoleTag(role: AwsRole, roleName: string, value: string): RoleTag {
  const cut = value.lastIndexOf(':');
  const body = value.slice(0, cut);
  const given = Buffer.from(value.slice(cut + 1));
  const expected = Buffer.from(mac(role.hmac_key, body));
  if (cut < 0 || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new PermissionDeniedError('failed to verify the role tag');
  const [prefix, nonce, ...pairs] = body.split(':');
  const fields = new Map(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  if (prefix !== PREFIX) throw new PermissionDeniedError('unsupported role tag version');
  const tag: RoleTag = {
    nonce: nonce ?? '',
    role: fields.get('r') ?? '',
    policies: (fields.get('p') ?? '').split(',').filter(Boolean),
    maxTtl: Number(fields.get('t') ?? 0),
    instanceId: fields.get('i') ?? '',
    allowInstanceMigration: fields.get('m') === 'true',
    disallowReauthentication: fields.get('d') === 'true',
  };
  if (tag.role !== roleName) throw new PermissionDeniedError('role tag is for another role');
  return tag;
}
