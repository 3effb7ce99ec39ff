import type { AclOp } from '../../acl/service.js';
import type { AgentServices } from '../../services.js';
import { empty, json, type Reply } from '../reply.js';
import type { AgentRequest } from '../request.js';
import type { Route } from '../route.js';

type OpFor = (req: AgentRequest) => Promise<AclOp>;

/** A route whose handler runs one ACL operation; a write without a result answers an empty 200. */
function aclRoute(methods: readonly string[], path: string, opFor: OpFor): Route {
  return {
    methods,
    path,
    need: 'none', // The ACL service checks: bootstrap needs nothing, token/self a valid token, the rest management.
    handler: async (agent: Pick<AgentServices, 'acl'>, req: AgentRequest): Promise<Reply> => {
      const result = await agent.acl.execute(req.token, await opFor(req));
      return result === undefined ? empty : json(result);
    },
  };
}

const GET = ['GET'];
const WRITE = ['PUT', 'POST'];
const DELETE = ['DELETE'];

/** The ACL API (established paths under /v1/acl). */
export const aclRoutes: Route[] = [
  aclRoute(WRITE, '/v1/acl/bootstrap', async () => ({ op: 'bootstrap' })),
  aclRoute(GET, '/v1/acl/policies', async () => ({ op: 'policy-list' })),
  aclRoute(GET, '/v1/acl/policy/:name', async (r) => ({ op: 'policy-read', name: r.params.name ?? '' })),
  aclRoute(WRITE, '/v1/acl/policy/:name', async (r) => ({
    op: 'policy-upsert',
    name: r.params.name ?? '',
    body: await r.body(),
  })),
  aclRoute(DELETE, '/v1/acl/policy/:name', async (r) => ({ op: 'policy-delete', name: r.params.name ?? '' })),
  aclRoute(GET, '/v1/acl/tokens', async () => ({ op: 'token-list' })),
  aclRoute(WRITE, '/v1/acl/token', async (r) => ({ op: 'token-upsert', body: await r.body() })),
  aclRoute(GET, '/v1/acl/token/self', async () => ({ op: 'token-self' })),
  aclRoute(GET, '/v1/acl/token/:accessor', async (r) => ({ op: 'token-read', accessor: r.params.accessor ?? '' })),
  aclRoute(WRITE, '/v1/acl/token/:accessor', async (r) => ({
    op: 'token-upsert',
    accessor: r.params.accessor ?? '',
    body: await r.body(),
  })),
  aclRoute(DELETE, '/v1/acl/token/:accessor', async (r) => ({ op: 'token-delete', accessor: r.params.accessor ?? '' })),
];
