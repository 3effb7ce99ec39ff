import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { deleteTree } from '../../logical/storage.js';
import { cubbyholePrefix, pathCubbyhole } from './path-cubbyhole.js';

const HELP =
  'The cubbyhole engine gives every token a private place for secrets: a token sees only its own ' +
  'cubbyhole, not even a root token can read another one, and everything in it is destroyed with ' +
  'the token. Response wrapping keeps the wrapped response in the wrapping token’s cubbyhole.';

/** Factory of the built-in `cubbyhole` engine, one per namespace at `cubbyhole/`. */
export function createCubbyholeBackend(ctx: BackendContext): Backend {
  return createBackend({
    type: 'cubbyhole',
    storage: ctx.storage,
    help: HELP,
    paths: [pathCubbyhole()],
    tokenRevoked: (accessor) => deleteTree(ctx.storage, cubbyholePrefix(accessor)),
  });
}
