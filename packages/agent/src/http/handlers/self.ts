import type { Agent } from '../../agent.js';
import { selfResponse } from '../../self.js';
import { json, type Reply } from '../reply.js';

/** GET /v1/agent/self. */
export async function self(agent: Agent): Promise<Reply> {
  return json(selfResponse(agent));
}
