import { type RouteEntry, Router } from '@ward/base';
import { InvalidRequestError } from '../errors.js';
import { aclRoutes } from './handlers/acl.js';
import { forceLeave, join } from './handlers/gossip.js';
import { health } from './handlers/health.js';
import { host } from './handlers/host.js';
import { keyringChange, keyringList } from './handlers/keyring.js';
import { members } from './handlers/members.js';
import { monitor } from './handlers/monitor.js';
import { nodes } from './handlers/nodes.js';
import { raftConfiguration } from './handlers/operator.js';
import { pprof } from './handlers/pprof.js';
import { self } from './handlers/self.js';
import { listServers, updateServers } from './handlers/servers.js';
import { statusLeader, statusPeers } from './handlers/status.js';
import type { Route } from './route.js';

export type { Route } from './route.js';

const GET = ['GET'] as const;
/** "POST" endpoints also accept PUT, as the established agent does. */
const WRITE = ['PUT', 'POST'] as const;

/** Every endpoint of the agent, in one place. */
export const ROUTES: readonly Route[] = [
  { methods: GET, path: '/v1/agent/members', need: 'node:read', handler: members },
  { methods: GET, path: '/v1/agent/servers', role: 'client', need: 'agent:read', handler: listServers },
  { methods: WRITE, path: '/v1/agent/servers', role: 'client', need: 'agent:write', handler: updateServers },
  { methods: GET, path: '/v1/agent/self', need: 'agent:read', handler: self },
  { methods: WRITE, path: '/v1/agent/join', role: 'server', need: 'none', handler: join },
  { methods: WRITE, path: '/v1/agent/force-leave', role: 'server', need: 'agent:write', handler: forceLeave },
  { methods: GET, path: '/v1/agent/health', need: 'none', handler: health },
  { methods: GET, path: '/v1/agent/keyring/list', role: 'server', need: 'agent:write', handler: keyringList },
  { methods: WRITE, path: '/v1/agent/keyring/:op', role: 'server', need: 'agent:write', handler: keyringChange },
  // Host and profiles check the debug gate on the agent that does the work (maybe another one).
  { methods: GET, path: '/v1/agent/host', need: 'none', handler: host },
  { methods: GET, path: '/v1/agent/monitor', need: 'agent:read', handler: monitor },
  { methods: GET, path: '/v1/agent/pprof/*', need: 'agent:write', handler: pprof },
  // The scheduler CLI's `server members` reads these; like the established agent, no ACL.
  { methods: GET, path: '/v1/status/leader', need: 'none', handler: statusLeader },
  { methods: GET, path: '/v1/status/peers', need: 'none', handler: statusPeers },
  { methods: GET, path: '/v1/nodes', role: 'server', need: 'node:read', handler: nodes },
  // The established endpoint needs operator:read; the agent's ACL has no operator area, so agent:read.
  {
    methods: GET,
    path: '/v1/operator/raft/configuration',
    role: 'server',
    need: 'agent:read',
    handler: raftConfiguration,
  },
  ...aclRoutes,
];

/** The agent's table on base's router: exact slashes (as the established agent), captures decoded. */
export function routeTable(routes: readonly Route[]): Router<Route & RouteEntry> {
  return new Router(
    routes.map((route) => ({ ...route, method: route.methods, pattern: route.path })),
    { decode: true },
  );
}

const TABLE = routeTable(ROUTES);

/**
 * The route for `method` and `path` with its captures; `'wrong-method'` when only the
 * path matches (405), undefined when nothing does (404). A malformed escape in a capture is
 * the caller's mistake (400).
 */
export function matchRoute(
  method: string,
  path: string,
  table: Router<Route & RouteEntry> = TABLE,
): { route: Route; params: Record<string, string> } | 'wrong-method' | undefined {
  const m = table.match(method, path);
  if (m.kind === 'found') return { route: m.route, params: m.params };
  if (m.kind === 'bad_escape') {
    throw new InvalidRequestError(`invalid URL escape in path segment ${JSON.stringify(m.segment)}`);
  }
  return m.kind === 'method_not_allowed' ? 'wrong-method' : undefined;
}
