import { InvalidRequestError } from '../../logical/errors.js';

/** An IAM principal's ARN, taken apart (`arn:aws:iam::123:user/path/name`, `arn:aws:sts::123:assumed-role/R/s`). */
export interface PrincipalArn {
  partition: string;
  accountId: string;
  /** `user`, `role`, `assumed-role`, `federated-user`, `instance-profile`. */
  type: string;
  path: string;
  friendlyName: string;
  sessionInfo: string;
}

export function parseArn(arn: string): PrincipalArn {
  const parts = arn.split(':');
  if (parts.length < 6 || parts[0] !== 'arn' || (parts[2] !== 'iam' && parts[2] !== 'sts'))
    throw new InvalidRequestError(`unrecognized arn: ${JSON.stringify(arn)}`);
  const resource = parts.slice(5).join(':').split('/');
  const type = resource[0] ?? '';
  const base = { partition: parts[1] ?? '', accountId: parts[4] ?? '', type, path: '', sessionInfo: '' };
  if (type === 'assumed-role' || type === 'federated-user') {
    if (resource.length < 2) throw new InvalidRequestError(`unrecognized arn: ${JSON.stringify(arn)}`);
    return { ...base, friendlyName: resource[1] ?? '', sessionInfo: resource.slice(2).join('/') };
  }
  if (resource.length < 2) throw new InvalidRequestError(`unrecognized arn: ${JSON.stringify(arn)}`);
  return {
    ...base,
    path: resource.length > 2 ? `/${resource.slice(1, -1).join('/')}/` : '/',
    friendlyName: resource[resource.length - 1] ?? '',
  };
}

/** The ARN a login's principal is bound by: an assumed role's session is its role (without the path). */
export function canonicalArn(arn: PrincipalArn): string {
  const entity = arn.type === 'assumed-role' ? 'role' : arn.type;
  return `arn:${arn.partition}:iam::${arn.accountId}:${entity}/${arn.friendlyName}`;
}

/** Whether `arn` is matched by a bound ARN (exact, or a prefix ending in `*`). */
export function arnMatches(bound: string, arn: string): boolean {
  return bound.endsWith('*') ? arn.startsWith(bound.slice(0, -1)) : bound === arn;
}
