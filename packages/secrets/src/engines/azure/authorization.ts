import { AuthorizationManagementClient } from '@azure/arm-authorization';
import type { TokenCredential } from '@azure/identity';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import type { AzureAccess, AzureCloud } from './clouds.js';
import { pipelineOptions } from './credential.js';

export interface RoleDefinitionRef {
  id: string;
  roleName: string;
}

const status = (err: unknown) => (err as { statusCode?: number }).statusCode;
const failed = (what: string, err: unknown) =>
  new UpstreamError(`Resource Manager (${what}): ${(err as Error).message}`, { cause: err });
/** The SDK's `{scope}` is substituted after a `/`: an established scope starts with one already. */
const bare = (scope: string) => scope.replace(/^\/+/, '');

/**
 * Resource Manager does not see a service principal Graph just created yet (directory replication):
 * the assignment may succeed if asked again a little later.
 */
export class PrincipalNotVisibleError extends UpstreamError {}

/** Role definitions and role assignments through `@azure/arm-authorization`. */
export class AuthorizationApi {
  readonly #client: AuthorizationManagementClient;

  constructor(access: AzureAccess, cloud: AzureCloud, credential: TokenCredential, subscriptionId: string) {
    this.#client = new AuthorizationManagementClient(credential, subscriptionId, {
      endpoint: cloud.resourceManagerEndpoint.replace(/\/+$/, ''),
      credentialScopes: [`${cloud.resourceManagerEndpoint}.default`],
      retryOptions: { maxRetries: 2 },
      ...pipelineOptions(access),
    });
  }

  /** The role definition named `roleName` at `scope`: exactly one must match. */
  async roleByName(scope: string, roleName: string): Promise<RoleDefinitionRef> {
    const found: RoleDefinitionRef[] = [];
    try {
      const filter = `roleName eq '${roleName.replaceAll("'", "''")}'`;
      for await (const def of this.#client.roleDefinitions.list(bare(scope), { filter }))
        if (def.id && def.roleName) found.push({ id: def.id, roleName: def.roleName });
    } catch (err) {
      throw failed('role definitions', err);
    }
    if (found.length === 0) throw new InvalidRequestError(`no role found for role_name: '${roleName}'`);
    if (found.length > 1)
      throw new InvalidRequestError(`multiple matches found for role_name: '${roleName}'. Specify role by ID instead.`);
    return found[0] as RoleDefinitionRef;
  }

  /** The role definition with id `roleId` (a full resource id). */
  async roleById(roleId: string): Promise<RoleDefinitionRef> {
    try {
      const def = await this.#client.roleDefinitions.getById(bare(roleId));
      return { id: def.id ?? roleId, roleName: def.roleName ?? '' };
    } catch (err) {
      if (status(err) === 404) throw new InvalidRequestError(`unable to find role with id: '${roleId}'`);
      throw failed('role definition', err);
    }
  }

  /** Assigns a role to a principal at `scope` under the assignment name `name` (a UUID): its resource id. */
  async assign(scope: string, name: string, roleDefinitionId: string, principalId: string): Promise<string> {
    try {
      const created = await this.#client.roleAssignments.create(bare(scope), name, {
        roleDefinitionId,
        principalId,
        principalType: 'ServicePrincipal',
      });
      return created.id ?? `${scope}/providers/Microsoft.Authorization/roleAssignments/${name}`;
    } catch (err) {
      if ((err as { code?: string }).code === 'PrincipalNotFound')
        throw new PrincipalNotVisibleError(`Resource Manager (role assignment): ${(err as Error).message}`, {
          cause: err,
        });
      throw failed('role assignment', err);
    }
  }

  /** Deletes a role assignment by its resource id; one already gone counts as deleted. */
  async unassign(assignmentId: string): Promise<void> {
    try {
      await this.#client.roleAssignments.deleteById(bare(assignmentId));
    } catch (err) {
      if (status(err) === 404) return;
      throw failed('role assignment', err);
    }
  }
}
