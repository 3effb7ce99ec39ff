import { type Fields, type HandlerContext, listPath, type PathDefinition } from '../../framework/index.js';
import { NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { type TokenParams, tokenReadData } from './token-fields.js';

/** A method's roles as its store keeps them, each with its `token_*` settings. */
export interface RoleRecords<R extends { token: TokenParams }> {
  roles(storage: Storage): Promise<string[]>;
  role(storage: Storage, name: string): Promise<R | undefined>;
  deleteRole(storage: Storage, name: string): Promise<unknown>;
}

/** LIST of the role names at each of `patterns` (`role/`, and aliases such as `roles/`); 404 when there are none. */
export function roleListPaths(
  store: Pick<RoleRecords<never>, 'roles'>,
  patterns: readonly string[] = ['role/'],
): PathDefinition[] {
  return patterns.map((pattern) => listPath(pattern, (storage) => store.roles(storage)));
}

/** What the read of a role shows besides its `token_*` fields: by default every other field it stores. */
type RoleView<R> = (role: R) => Record<string, unknown>;

const everyFieldButToken = <R extends { token: TokenParams }>({ token: _token, ...rest }: R) => rest;

/**
 * The `read` and `delete` operations of a `role/:<capture>` path (`capture`: `name` unless told):
 * a read answers the role's fields (`view`) with its `token_*` fields flattened in, 404 when there
 * is no such role; a delete removes it (none is no error).
 */
export function roleReadDelete<R extends { token: TokenParams }>(
  store: RoleRecords<R>,
  o: { capture?: string; view?: RoleView<R> } = {},
) {
  const nameOf = (data: Record<string, unknown>) => String(data[o.capture ?? 'name']);
  const view = o.view ?? everyFieldButToken;
  return {
    read: {
      summary: 'Read the role.',
      handler: async ({ storage, data }: HandlerContext<Fields>) => {
        const role = await store.role(storage, nameOf(data));
        if (!role) throw new NotFoundError('');
        return { data: { ...view(role), ...tokenReadData(role.token) } };
      },
    },
    delete: {
      summary: 'Delete the role.',
      handler: async ({ storage, data }: HandlerContext<Fields>) => {
        await store.deleteRole(storage, nameOf(data));
        return undefined;
      },
    },
  };
}
