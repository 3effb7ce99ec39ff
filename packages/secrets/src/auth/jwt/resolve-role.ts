import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { type JwtConfig, type JwtRole, jwtStore } from './jwt-store.js';

/** The configuration and the named role (or the default role), with the established refusals. */
export async function resolveRole(
  storage: Storage,
  name: string | undefined,
): Promise<{ config: JwtConfig; roleName: string; role: JwtRole }> {
  const config = await jwtStore.config(storage);
  if (!config) throw new InvalidRequestError('could not load configuration');
  const roleName = name || config.default_role;
  if (!roleName) throw new InvalidRequestError('missing role');
  const role = await jwtStore.role(storage, roleName);
  if (!role) throw new InvalidRequestError(`role "${roleName}" could not be found`);
  return { config, roleName, role };
}
