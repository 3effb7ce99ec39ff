import type { AgentServices, Requirement } from '../services.js';
import type { Reply } from './reply.js';
import type { AgentRequest } from './request.js';

/** One endpoint of the route table (`routes.ts`). */
export interface Route {
  methods: readonly string[];
  /** Literal segments, `:name` captures one segment, a final `*` captures the rest. */
  path: string;
  /** Server-only or client-only endpoints answer 501 `Invalid method` on the other kind. */
  role?: 'server' | 'client';
  /** Checked before the handler runs (403 on failure). */
  need: Requirement;
  handler(agent: AgentServices, req: AgentRequest): Promise<Reply>;
}
