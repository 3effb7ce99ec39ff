import type { Edition } from '../context.js';
import { type ResourceObject, timestamp } from '../jsonapi/document.js';
import type { OrganizationRow, TokenRow, UserRow } from '../store/index.js';
import type { MembershipRow } from '../store/organizations.js';

export function organizationResource(org: OrganizationRow, edition: Edition): ResourceObject {
  const base = `/api/v2/organizations/${encodeURIComponent(org.name)}`;
  return {
    id: org.name,
    type: 'organizations',
    attributes: {
      name: org.name,
      email: org.email,
      'external-id': org.id,
      'created-at': timestamp(org.created_at),
    },
    relationships: {
      'entitlement-set': {
        data: { id: org.id, type: 'entitlement-sets' },
        links: { related: `${base}/entitlement-set` },
      },
      ...(edition === 'hosted' ? { subscription: { links: { related: `${base}/subscription` } } } : {}),
    },
    links: { self: base },
  };
}

export function userResource(user: UserRow): ResourceObject {
  return {
    id: user.id,
    type: 'users',
    attributes: { username: user.username, email: user.email, 'is-site-admin': user.is_site_admin === 1 },
    links: { self: `/api/v2/users/${user.id}` },
  };
}

/** `secret` is given only in the response that created the token; it is never stored. */
export function tokenResource(token: TokenRow, secret: string | null = null): ResourceObject {
  return {
    id: token.id,
    type: 'authentication-tokens',
    attributes: {
      'created-at': timestamp(token.created_at),
      'last-used-at': timestamp(token.last_used_at),
      'expired-at': timestamp(token.expired_at),
      description: token.description,
      token: secret,
    },
    ...(token.user_id ? { relationships: { 'created-by': { data: { id: token.user_id, type: 'users' } } } } : {}),
  };
}

export function membershipResource(m: MembershipRow, org: OrganizationRow): ResourceObject {
  return {
    id: m.id,
    type: 'organization-memberships',
    attributes: { status: 'active', role: m.role, 'created-at': timestamp(m.created_at) },
    relationships: {
      organization: { data: { id: org.name, type: 'organizations' } },
      user: { data: { id: m.user_id, type: 'users' } },
    },
  };
}
