import { InvalidRequestError } from '../../logical/errors.js';
import { type AwsEngineRole, CREDENTIAL_TYPES, type CredentialType } from './aws-engine-store.js';

const STS_TYPES: CredentialType[] = ['assumed_role', 'federation_token', 'session_token'];

export function credentialTypesOf(given: string[]): CredentialType[] {
  for (const type of given)
    if (!(CREDENTIAL_TYPES as readonly string[]).includes(type))
      throw new InvalidRequestError(`unrecognized credential type: ${type}`);
  return [...new Set(given)] as CredentialType[];
}

/** Compact JSON of a policy document; 400 when it is not JSON. */
export function compactPolicy(text: string): string {
  if (!text.trim()) return '';
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    throw new InvalidRequestError('cannot parse policy document: not JSON');
  }
}

/** Checks a role as the established engine does; throws with its texts. */
export function checkEngineRole(role: AwsEngineRole): void {
  const types = role.credential_types;
  if (types.length === 0) throw new InvalidRequestError('did not supply credential_type');
  const has = (t: CredentialType) => types.includes(t);
  if (role.role_arns.length > 0 && !has('assumed_role'))
    throw new InvalidRequestError("cannot supply role_arns when credential_type isn't assumed_role");
  if (!types.some((t) => STS_TYPES.includes(t))) {
    if (role.default_sts_ttl)
      throw new InvalidRequestError(
        'default_sts_ttl parameter only valid for assumed_role, federation_token, and session_token credential types',
      );
    if (role.max_sts_ttl)
      throw new InvalidRequestError(
        'max_sts_ttl parameter only valid for assumed_role, federation_token, and session_token credential types',
      );
  }
  if (role.max_sts_ttl && role.default_sts_ttl > role.max_sts_ttl)
    throw new InvalidRequestError('default_sts_ttl cannot exceed max_sts_ttl');
  if (!has('iam_user')) {
    if (role.user_path !== '/' && role.user_path)
      throw new InvalidRequestError('user_path parameter only valid for iam_user credential type');
    if (role.permissions_boundary_arn)
      throw new InvalidRequestError('permissions_boundary_arn parameter only valid for iam_user credential type');
    if (Object.keys(role.iam_tags).length > 0)
      throw new InvalidRequestError('iam_tags parameter only valid for iam_user credential type');
  }
  if (role.user_path && !/^\/([\x21-\x7f]{0,510}\/)?$/.test(role.user_path))
    throw new InvalidRequestError('user_path is invalid');
  if (has('session_token') && types.length === 1 && role.iam_groups.length > 0)
    throw new InvalidRequestError('cannot supply iam_groups when using credential_type session_token');
  if (has('session_token') && types.length === 1 && (role.policy_arns.length > 0 || role.policy_document))
    throw new InvalidRequestError('cannot supply a policy or role when using credential_type session_token');
  if (role.mfa_serial_number && !has('session_token'))
    throw new InvalidRequestError('mfa_serial_number parameter only valid for session_token credential type');
  if (Object.keys(role.session_tags).length > 0 && !has('assumed_role'))
    throw new InvalidRequestError('session_tags parameter only valid for assumed_role credential type');
  if (role.external_id && !has('assumed_role'))
    throw new InvalidRequestError('external_id parameter only valid for assumed_role credential type');
}
