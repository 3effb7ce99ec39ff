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

/**
 * The route for `method` and `path` with its captures; `'wrong-method'` when only the
 * path matches (405), undefined when nothing does (404).
 */
export function matchRoute(
  method: string,
  path: string,
  routes: readonly Route[] = ROUTES,
): { route: Route; params: Record<string, string> } | 'wrong-method' | undefined {
  let isPathKnown = false;
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.methods.includes(method)) return { route, params };
    isPathKnown = true;
  }
  return isPathKnown ? 'wrong-method' : undefined;
}

/** Captures of `path` against a route pattern, or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    if (w === '*') {
      params['*'] = got.slice(i).join('/');
      return params;
    }
    const g = got[i];
    if (g === undefined) return undefined;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      params[w.slice(1)] = decodeSegment(g);
    } else if (w !== g) return undefined;
  }
  return got.length === want.length ? params : undefined;
}

/** A path segment's percent-escapes decoded; a malformed escape is the caller's mistake (400). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new InvalidRequestError(`invalid URL escape in path segment ${JSON.stringify(segment)}`);
  }
}
