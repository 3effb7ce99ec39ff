/** An entity's name at one auth mount (userpass: the username). Stored inside its entity. */
export interface AliasRecord {
  id: string;
  /** The entity it belongs to. */
  canonical_id: string;
  name: string;
  mount_accessor: string;
  metadata: Record<string, string> | null;
  custom_metadata: Record<string, string> | null;
  local: boolean;
  /** Entities this alias belonged to before merges moved it here. */
  merged_from_canonical_ids: string[] | null;
  namespace_id: string;
  creation_time_ms: number;
  last_update_time_ms: number;
}

/** A login-MFA TOTP secret an entity holds for one method. */
export interface MfaSecret {
  method_id: string;
  /** Base32 TOTP key. */
  secret: string;
}

/** A person or service behind one or more aliases; its tokens carry its id. */
export interface EntityRecord {
  id: string;
  name: string;
  namespace_id: string;
  metadata: Record<string, string> | null;
  /** Sorted, deduplicated; added to its tokens' policies at request time. */
  policies: string[];
  /** Its tokens are refused while set; they are not revoked. */
  disabled: boolean;
  /** Entities merged into this one: their tokens resolve here. */
  merged_entity_ids: string[] | null;
  aliases: AliasRecord[];
  /** Keyed by MFA method id. */
  mfa_secrets: Record<string, MfaSecret>;
  bucket_key_hash: string;
  creation_time_ms: number;
  last_update_time_ms: number;
}

/**
 * A group: internal groups list their member entities; external groups get theirs from the
 * auth method at login, matched through their alias. Members inherit the policies.
 */
export interface GroupRecord {
  id: string;
  name: string;
  /** Fixed at creation. */
  type: 'internal' | 'external';
  namespace_id: string;
  metadata: Record<string, string> | null;
  policies: string[];
  member_entity_ids: string[];
  member_group_ids: string[];
  creation_time_ms: number;
  last_update_time_ms: number;
}

/** A group's name at one auth mount (an LDAP group, an OIDC groups claim): one per external group. */
export interface GroupAliasRecord {
  id: string;
  /** The external group it belongs to. */
  canonical_id: string;
  name: string;
  mount_accessor: string;
  namespace_id: string;
  creation_time_ms: number;
  last_update_time_ms: number;
}

/** A login-MFA TOTP method: the parameters of the secrets generated for entities. */
export interface TotpMethod {
  id: string;
  method_name: string;
  issuer: string;
  period: number;
  key_size: number;
  qr_size: number;
  algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  digits: number;
  skew: number;
  max_validation_attempts: number;
  namespace_id: string;
}
