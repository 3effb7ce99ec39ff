import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwsError, createAwsState, type FakeInstance, type FakeUser, IAM_NS, id, STS_NS } from './aws-fake-state.js';
import { iamActions } from './aws-iam-actions.js';
import { ec2Answer, ec2Error, queryAnswer, queryError, type XmlValue } from './aws-query-xml.js';
import { ec2Actions, stsActions } from './aws-sts-ec2-actions.js';
import { type KnownKey, SigV4Refusal, verifySigV4 } from './sigv4-check.js';

export type { FakeInstance, FakeUser } from './aws-fake-state.js';

/**
 * AWS IAM, STS and EC2 as their SDKs and signed clients speak to them: `POST /` with a
 * form-encoded `Action=…&Version=…` body, every request SigV4-verified against the keys the fake
 * issued (403 `SignatureDoesNotMatch`, `InvalidClientTokenId`, expired dates), XML answers in the
 * Query protocol (IAM, STS) or the EC2 protocol. The service is the one the request was signed
 * for, so one endpoint serves all three. State is real: users have groups, policies and keys
 * (which sign requests as that user); deleting a user that still has any is refused as IAM does.
 */
export interface FakeAws {
  endpoint: string;
  account: string;
  /** A user with an access key: its credentials sign requests as it. */
  addUser(name: string, path?: string): { accessKeyId: string; secretAccessKey: string; arn: string; userId: string };
  addRole(name: string, path?: string): { arn: string; roleId: string };
  /** A group, with inline policies (name → document) and attached policy ARNs. */
  addGroup(name: string, policies?: { inline?: Record<string, string>; attached?: string[] }): void;
  /** The session policies STS calls were given, in order. */
  stsPolicies: { action: string; policy: string; policyArns: string[] }[];
  addInstance(i: FakeInstance): void;
  addInstanceProfile(name: string, roleName: string): string;
  /** Credentials of a session of `roleName` named `session` (what an instance profile hands an instance). */
  roleSession(
    roleName: string,
    session: string,
  ): { accessKeyId: string; secretAccessKey: string; sessionToken: string };
  users: Map<string, FakeUser>;
  /** Actions answered 500 ServiceUnavailable (with `InternalFailure`) until removed. */
  failing: Set<string>;
  /** Actions received, `service:Action`, in order. */
  calls: string[];
  /** The fake's clock for signature dates (default: the real one). */
  now: () => number;
  close(): Promise<void>;
}

export async function startFakeAws(account = '123456789012'): Promise<FakeAws> {
  const s = createAwsState(account);
  const {
    keys,
    users,
    roles,
    groups,
    profiles,
    instances,
    calls,
    failing,
    stsPolicies,
    newKey,
    userArn,
    createUser,
    roleSession,
  } = s;
  const iam = iamActions(s);
  const sts = stsActions(s);
  const ec2 = ec2Actions(s);
  const fake: FakeAws = {
    endpoint: '',
    account,
    users,
    failing,
    calls,
    now: () => Date.now(),
    addUser(name, path = '/') {
      const u = createUser(name, path);
      const k = newKey({ arn: userArn(u), userId: u.userId, user: name });
      u.keys.add(k.accessKeyId);
      return { ...k, arn: userArn(u), userId: u.userId };
    },
    addRole(name, path = '/') {
      const r = { arn: `arn:aws:iam::${account}:role${path}${name}`, roleId: id('AROA'), path };
      roles.set(name, r);
      return { arn: r.arn, roleId: r.roleId };
    },
    addGroup: (name, p = {}) =>
      void groups.set(name, { inline: new Map(Object.entries(p.inline ?? {})), attached: p.attached ?? [] }),
    stsPolicies,
    addInstance: (i) => void instances.set(i.instanceId, i),
    addInstanceProfile(name, roleName) {
      profiles.set(name, roleName);
      return `arn:aws:iam::${account}:instance-profile/${name}`;
    },
    roleSession: (roleName, session) => {
      const { accessKeyId, secretAccessKey, sessionToken } = roleSession(roleName, session);
      return { accessKeyId, secretAccessKey, sessionToken };
    },
    close: () => close(server),
  };
  const services = new Map([
    ['iam', { handlers: iam, ns: IAM_NS }],
    ['sts', { handlers: sts, ns: STS_NS }],
    ['ec2', { handlers: ec2, ns: '' }],
  ]);
  const server = createServer((req, res) => void handle(req, res, fake, keys, services));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  fake: FakeAws,
  keys: Map<string, KnownKey & { principal: { arn: string; userId: string; user?: string } }>,
  services: Map<
    string,
    { handlers: Map<string, (f: URLSearchParams, s: never) => Record<string, XmlValue>>; ns: string }
  >,
) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString();
  const form = new URLSearchParams(body);
  const action = form.get('Action') ?? '';
  const requestId = id('', 8);
  let service = /Credential=[^/]+\/\d{8}\/[^/]+\/([^/]+)\//.exec(String(req.headers.authorization ?? ''))?.[1] ?? 'sts';
  fake.calls.push(`${service}:${action}`);
  const reply = (status: number, xml: string) => {
    res.writeHead(status, { 'content-type': 'text/xml' });
    res.end(xml);
  };
  try {
    const signer = await verifySigV4(
      { method: req.method ?? 'POST', url: req.url ?? '/', headers: req.headers, body },
      keys,
      fake.now(),
    );
    service = signer.service;
    const handler = services.get(service)?.handlers.get(action);
    if (!handler) throw new AwsError('InvalidAction', `Could not find operation ${action} for ${service}`);
    if (fake.failing.has(action)) throw new AwsError('ServiceUnavailable', 'Service is unavailable', 503);
    const principal = keys.get(signer.accessKeyId)?.principal;
    const result = handler(form, { ...signer, principal } as never);
    reply(
      200,
      service === 'ec2'
        ? ec2Answer(action, result, requestId)
        : queryAnswer(action, services.get(service)?.ns ?? '', result, requestId),
    );
  } catch (err) {
    const e =
      err instanceof SigV4Refusal
        ? new AwsError(err.code, err.message, 403)
        : err instanceof AwsError
          ? err
          : new AwsError('InternalFailure', String(err), 500);
    reply(
      e.status,
      service === 'ec2'
        ? ec2Error(e.code, e.message, requestId)
        : queryError(e.code, e.message, requestId, e.status >= 500 ? 'Receiver' : 'Sender'),
    );
  }
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
