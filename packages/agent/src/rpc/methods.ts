/** RPC between agents: the wire protocol, the client (plain or mutual TLS) and the methods servers answer. @module */
import type { LogLevel } from '@ward/base';
import type { AclOp } from '../acl/service.js';
import { collectHostData } from '../debug/host-data.js';
import { InvalidRequestError, PermissionDeniedError } from '../errors.js';
import { type ForwardView, findNode, livePeers } from '../forward.js';
import { localMembers } from '../members.js';
import { followLogs } from '../monitor/local-monitor.js';
import { parseAppendRequest, parseTimeoutNow, parseVoteRequest } from '../raft/rpc-transport.js';
import { KEYRING_OPS, type KeyringOp } from '../server/gossip-keys.js';
import type { AgentServices, Consensus } from '../services.js';
import { raftStatus } from '../status.js';
import type { RpcCall, RpcMethod } from './rpc-server.js';

const unary = (handle: (call: RpcCall) => Promise<unknown>): RpcMethod => ({ kind: 'unary', handle });

/**
 * The agent's RPC methods. With ACLs on, every method that reveals or does anything
 * checks a token on the agent that does the work: the token of the user a forwarded
 * request acts for, or, for a client's heartbeat, its agent token (`acl { agent_token }`).
 * Only `Status.Ping`, `Status.Raft` (leader and peers, as `/v1/status/*` answer anyone)
 * and the server-to-server Raft methods take no token: with `tls { rpc,
 * verify_server_hostname }` the Raft methods answer only a peer with a server certificate;
 * without TLS the RPC port must only be reachable by the cluster.
 */
/** What the RPC methods use of the agent. */
type RpcMethodsView = ForwardView &
  Pick<
    AgentServices,
    'acl' | 'aclStore' | 'authorize' | 'deps' | 'gossipKeys' | 'isServer' | 'profiler' | 'consensus' | 'rpcAddress'
  >;

export function rpcMethods(agent: RpcMethodsView): Map<string, RpcMethod> {
  return new Map<string, RpcMethod>([
    ['Status.Ping', unary(async () => ({}))],
    ['Status.Raft', unary(async () => raftStatus(agent))],
    ['Raft.RequestVote', unary(async (c) => raftOf(agent, c).handleVote(parseVoteRequest(c.args)))],
    ['Raft.AppendEntries', unary(async (c) => raftOf(agent, c).handleAppend(parseAppendRequest(c.args)))],
    [
      'Raft.TimeoutNow',
      unary(async (c) => {
        raftOf(agent, c).handleTimeoutNow(parseTimeoutNow(c.args));
        return {};
      }),
    ],
    // Topology lookups serve forwarded requests (host, monitor, pprof), all of which need
    // at least agent:read: the caller's token must carry it.
    [
      'Status.Leader',
      unary(async ({ token }) => {
        await agent.authorize(token, 'agent:read');
        return { leader: agent.isServer ? leaderAddress(agent) : '' };
      }),
    ],
    [
      'Status.Peers',
      unary(async ({ token }) => {
        await agent.authorize(token, 'agent:read');
        return agent.isServer ? livePeers(agent, token) : [];
      }),
    ],
    [
      'Status.Members',
      unary(async ({ token }) => {
        await agent.authorize(token, 'node:read');
        return localMembers(agent);
      }),
    ],
    [
      'Node.Heartbeat',
      // Registering decides where node_id requests (and their tokens) are sent: with ACLs
      // on, only an agent holding node:write may claim a node.
      unary(async ({ token, args }) => {
        await agent.authorize(token, 'node:write');
        agent.nodes.heartbeat({
          id: String(args.nodeId),
          name: String(args.name),
          rpcAddr: String(args.rpcAddr),
          datacenter: typeof args.datacenter === 'string' ? args.datacenter : '',
          lastHeartbeatMs: agent.deps.clock.now(),
        });
        return {};
      }),
    ],
    [
      'Node.Lookup',
      unary(async ({ token, args }) => {
        await agent.authorize(token, 'agent:read');
        return { rpcAddr: await findNode(agent, String(args.id), true, token) };
      }),
    ],
    ['ACL.ResolveToken', unary(async ({ token }) => agent.aclStore.resolve(token))],
    ['ACL.Op', unary(async ({ token, args }) => agent.acl.execute(token, args as unknown as AclOp))],
    [
      'Agent.Host',
      unary(async ({ token }) => {
        await agent.authorize(token, 'debug');
        return collectHostData(agent.deps.env);
      }),
    ],
    [
      'Agent.Pprof',
      unary(async ({ token, args, signal }) => {
        await agent.authorize(token, 'pprof');
        const r = await agent.profiler.run({
          signal,
          profile: String(args.profile),
          seconds: Number(args.seconds),
          debug: Number(args.debug),
          gc: Number(args.gc),
        });
        return { ...r, body: r.body.toString('base64') };
      }),
    ],
    [
      'Agent.Keyring',
      unary(async ({ token, args }) => {
        await agent.authorize(token, 'agent:write');
        const op = String(args.op);
        if (!KEYRING_OPS.has(op)) throw new InvalidRequestError(`unknown keyring operation ${op}`);
        return agent.gossipKeys.apply(op as KeyringOp, String(args.key ?? ''));
      }),
    ],
    [
      'Agent.Monitor',
      {
        kind: 'stream',
        async handle({ token, args, signal }, write) {
          await agent.authorize(token, 'agent:read');
          const o = { level: args.logLevel as LogLevel, json: args.logJson === true, signal };
          await followLogs(agent.deps.hub, o, (line) => write(Buffer.from(line)));
        },
      },
    ],
  ]);
}

/** This server's Raft, for a caller that proved a server certificate (when certificates name roles). */
function raftOf(agent: Pick<AgentServices, 'consensus'>, call: RpcCall): Consensus {
  if (!call.isServerPeer) throw new PermissionDeniedError('Permission denied: Raft RPC needs a server certificate');
  if (!agent.consensus) throw new InvalidRequestError('raft: not a server');
  return agent.consensus;
}

function leaderAddress(agent: Pick<AgentServices, 'leaderRpc' | 'rpcAddress'>): string {
  const l = agent.leaderRpc();
  return l === 'self' ? agent.rpcAddress : (l ?? '');
}
