import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core/core.js';
import { sendJson } from './respond.js';

/**
 * A standby serves no request of its own (its caches would go stale under the active server's
 * writes) and does not forward yet: it redirects (307, method and body kept) to the active
 * server's `api_addr`, or answers 503 while no server is active.
 */
export async function answerAsStandby(core: Core, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { leader } = await core.haStatus();
  if (leader?.apiAddr) {
    const location = `${leader.apiAddr.replace(/\/+$/, '')}${req.url ?? '/'}`;
    res.writeHead(307, { Location: location, 'Cache-Control': 'no-store' });
    res.end();
    return;
  }
  sendJson(res, 503, { errors: ['this server is a standby and no active server is known yet'] });
}
