import { InvalidRequestError } from '../../../logical/errors.js';
import type { Storage } from '../../../logical/storage.js';
import { resolveIssuer } from '../issuers.js';
import { roleStore } from '../role-store.js';
import { type AcmeConfig, acmeStore } from './acme-store.js';

/** Why `name` cannot serve ACME, as established: missing, or not keeping its certificates. */
async function roleProblem(storage: Storage, name: string): Promise<string | undefined> {
  const role = await roleStore.get(storage, name);
  if (!role) return 'role does not exist';
  if (role.no_store) return 'role can not be used as NoStore is set to true';
  return undefined;
}

const isStar = (list: string[]) => list.length === 1 && list[0] === '*';

/**
 * Checks a `config/acme` about to be written, as the established server does: a known
 * `default_directory_policy` whose role can serve ACME and is among `allowed_roles`; roles and
 * issuers that exist (`*` alone or names, never both); `config/cluster` `path` once enabled.
 */
export async function checkConfig(storage: Storage, config: AcmeConfig): Promise<void> {
  const policy = config.default_directory_policy;
  if (policy === 'role:')
    throw new InvalidRequestError('invalid default_directory_policy: no role specified by policy role:');
  if (policy !== 'sign-verbatim' && policy !== 'forbid' && !policy.startsWith('role:'))
    throw new InvalidRequestError(
      `invalid default_directory_policy: string ${policy} not a valid Default Directory Policy`,
    );
  const defaultRole = policy.startsWith('role:') ? policy.slice('role:'.length) : '';
  if (defaultRole !== '') {
    const problem = await roleProblem(storage, defaultRole);
    if (problem)
      throw new InvalidRequestError(
        `default directory policy role ${defaultRole} is not a valid ACME role: ${problem}`,
      );
  }
  for (const [list, what] of [
    [config.allowed_roles, 'allowed_roles'],
    [config.allowed_issuers, 'allowed_issuers'],
  ] as const)
    if (list.length === 0)
      throw new InvalidRequestError(
        `${what} must take a non-zero length value; specify '*' as the value to allow anything or specify enabled=false to disable ACME entirely`,
      );
  if (!isStar(config.allowed_roles)) {
    for (const [index, name] of config.allowed_roles.entries()) {
      if (name === '*') throw new InvalidRequestError(`cannot use '*' as role name at index ${index}`);
      const problem = await roleProblem(storage, name);
      if (problem) throw new InvalidRequestError(`allowed_role ${name} is not a valid acme role: ${problem}`);
    }
    if (defaultRole !== '' && !config.allowed_roles.includes(defaultRole))
      throw new InvalidRequestError(
        `default directory policy ${policy} was not specified in allowed_roles: [${config.allowed_roles.join(' ')}]`,
      );
  }
  if (!isStar(config.allowed_issuers))
    for (const [index, ref] of config.allowed_issuers.entries()) {
      if (ref === '*') throw new InvalidRequestError(`cannot use '*' as issuer name at index ${index}`);
      await resolveIssuer(storage, ref).catch((err: Error) => {
        throw new InvalidRequestError(
          `failed validating allowed_issuers: unable to fetch issuer: ${ref}: ${err.message}`,
        );
      });
    }
  if (config.enabled && !(await acmeStore.cluster(storage)).path)
    throw new InvalidRequestError("ACME feature requires local cluster 'path' field configuration to be set");
}
