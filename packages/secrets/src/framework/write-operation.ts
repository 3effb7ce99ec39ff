import type { BackendRequest } from '../logical/request.js';
import type { PathMatch } from './backend.js';

/**
 * `create` when a write's target does not exist yet, else `update`, so ACL can tell them apart.
 * The one decision of it: the core's request pipeline and `testBackend` both ask here, so a path
 * tested beside its code sees the same operation it gets in the server.
 */
export async function writeOperation(target: PathMatch, req: BackendRequest): Promise<'create' | 'update'> {
  return (await target.exists(req)) === false ? 'create' : 'update';
}
