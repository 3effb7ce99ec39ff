import { selfResponse } from '../../self.js';
import { json, type Reply } from '../reply.js';

/** GET /v1/agent/self. */
export async function self(agent: Parameters<typeof selfResponse>[0]): Promise<Reply> {
  return json(selfResponse(agent));
}
