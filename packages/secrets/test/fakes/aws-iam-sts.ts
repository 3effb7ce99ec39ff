import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ec2Answer, ec2Error, listOf, queryAnswer, queryError, type XmlValue } from './aws-query-xml.js';
import { type KnownKey, type Signer, SigV4Refusal, verifySigV4 } from './sigv4-check.js';

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

export interface FakeUser {
  name: string;
  path: string;
  userId: string;
  groups: Set<string>;
  attached: Set<string>;
  inline: Map<string, string>;
  keys: Set<string>;
  tags: Map<string, string>;
  boundary: string;
}

export interface FakeInstance {
  instanceId: string;
  imageId: string;
  region: string;
  vpcId?: string;
  subnetId?: string;
  profileArn?: string;
  state?: string;
  tags?: Record<string, string>;
}

class AwsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Deletes `key` from a user's set or map; IAM answers NoSuchEntity for what is not there. */
function removed(from: Set<string> | Map<string, string>, key: string | null): Record<string, never> {
  if (!from.delete(key ?? '')) throw new AwsError('NoSuchEntity', `${key} is not attached to the user.`, 404);
  return {};
}

const IAM_NS = 'https://iam.amazonaws.com/doc/2010-05-08/';
const STS_NS = 'https://sts.amazonaws.com/doc/2011-06-15/';
const id = (prefix: string, n = 16) => prefix + randomBytes(n).toString('hex').toUpperCase().slice(0, n);

export async function startFakeAws(account = '123456789012'): Promise<FakeAws> {
  const keys = new Map<string, KnownKey & { principal: { arn: string; userId: string; user?: string } }>();
  const users = new Map<string, FakeUser>();
  const roles = new Map<string, { arn: string; roleId: string; path: string }>();
  const groups = new Map<string, { inline: Map<string, string>; attached: string[] }>();
  const stsPolicies: FakeAws['stsPolicies'] = [];
  const logPolicies = (action: string, f: URLSearchParams) => {
    const policyArns: string[] = [];
    for (let i = 1; f.get(`PolicyArns.member.${i}.arn`) !== null; i++)
      policyArns.push(f.get(`PolicyArns.member.${i}.arn`) ?? '');
    stsPolicies.push({ action, policy: f.get('Policy') ?? '', policyArns });
  };
  const group = (name: string | null) => {
    const g = groups.get(name ?? '');
    if (!g) throw new AwsError('NoSuchEntity', `The group with name ${name} cannot be found.`, 404);
    return g;
  };
  const profiles = new Map<string, string>();
  const instances = new Map<string, FakeInstance>();
  const calls: string[] = [];
  const failing = new Set<string>();
  const newKey = (principal: { arn: string; userId: string; user?: string }, sessionToken?: string) => {
    const accessKeyId = id(sessionToken ? 'ASIA' : 'AKIA');
    const secretAccessKey = randomBytes(30).toString('base64');
    keys.set(accessKeyId, { secretAccessKey, sessionToken, principal });
    return { accessKeyId, secretAccessKey };
  };
  const userArn = (u: FakeUser) => `arn:aws:iam::${account}:user${u.path}${u.name}`;
  const user = (name: string | null) => {
    const u = users.get(name ?? '');
    if (!u) throw new AwsError('NoSuchEntity', `The user with name ${name} cannot be found.`, 404);
    return u;
  };
  const createUser = (name: string, path = '/') => {
    if (users.has(name)) throw new AwsError('EntityAlreadyExists', `User with name ${name} already exists.`, 409);
    const u: FakeUser = {
      name,
      path,
      userId: id('AIDA'),
      groups: new Set(),
      attached: new Set(),
      inline: new Map(),
      keys: new Set(),
      tags: new Map(),
      boundary: '',
    };
    users.set(name, u);
    return u;
  };
  const userXml = (u: FakeUser) => ({
    Path: u.path,
    UserName: u.name,
    UserId: u.userId,
    Arn: userArn(u),
    CreateDate: new Date(),
  });
  const roleSession = (roleName: string, session: string, ttl = 3600) => {
    const role = roles.get(roleName);
    if (!role) throw new AwsError('NoSuchEntity', `role ${roleName} not found`, 404);
    const arn = `arn:aws:sts::${account}:assumed-role/${roleName}/${session}`;
    const sessionToken = randomBytes(24).toString('base64');
    const k = newKey({ arn, userId: `${role.roleId}:${session}` }, sessionToken);
    return {
      ...k,
      sessionToken,
      arn,
      assumedRoleId: `${role.roleId}:${session}`,
      expiration: new Date(Date.now() + ttl * 1000),
    };
  };
  const stsCreds = (c: { accessKeyId: string; secretAccessKey: string; sessionToken: string; expiration: Date }) => ({
    AccessKeyId: c.accessKeyId,
    SecretAccessKey: c.secretAccessKey,
    SessionToken: c.sessionToken,
    Expiration: c.expiration,
  });
  type Handler = (
    form: URLSearchParams,
    signer: Signer & { principal: { arn: string; userId: string; user?: string } },
  ) => Record<string, XmlValue>;
  const iam = new Map<string, Handler>([
    [
      'CreateUser',
      (f) => {
        const u = createUser(f.get('UserName') ?? '', f.get('Path') ?? '/');
        u.boundary = f.get('PermissionsBoundary') ?? '';
        for (let i = 1; f.get(`Tags.member.${i}.Key`) !== null; i++)
          u.tags.set(f.get(`Tags.member.${i}.Key`) ?? '', f.get(`Tags.member.${i}.Value`) ?? '');
        return { User: userXml(u) };
      },
    ],
    ['GetUser', (f, s) => ({ User: userXml(user(f.get('UserName') ?? s.principal.user ?? '')) })],
    [
      'DeleteUser',
      (f) => {
        const u = user(f.get('UserName'));
        if (u.groups.size || u.attached.size || u.inline.size || u.keys.size)
          throw new AwsError('DeleteConflict', 'Cannot delete entity, must remove subordinate entities first.', 409);
        users.delete(u.name);
        return {};
      },
    ],
    [
      'AddUserToGroup',
      (f) => {
        const g = f.get('GroupName') ?? '';
        if (!groups.has(g)) throw new AwsError('NoSuchEntity', `The group with name ${g} cannot be found.`, 404);
        user(f.get('UserName')).groups.add(g);
        return {};
      },
    ],
    ['RemoveUserFromGroup', (f) => removed(user(f.get('UserName')).groups, f.get('GroupName'))],
    [
      'ListGroupsForUser',
      (f) => ({
        Groups: [...user(f.get('UserName')).groups].map((g) => ({
          GroupName: g,
          Path: '/',
          GroupId: 'AGPA0',
          Arn: `arn:aws:iam::${account}:group/${g}`,
          CreateDate: new Date(),
        })),
        IsTruncated: false,
      }),
    ],
    [
      'AttachUserPolicy',
      (f) => {
        const arn = f.get('PolicyArn') ?? '';
        if (!/^arn:aws:iam::(aws|\d{12}):policy\//.test(arn))
          throw new AwsError('InvalidInput', `ARN ${arn} is not valid.`);
        user(f.get('UserName')).attached.add(arn);
        return {};
      },
    ],
    ['DetachUserPolicy', (f) => removed(user(f.get('UserName')).attached, f.get('PolicyArn'))],
    [
      'ListAttachedUserPolicies',
      (f) => ({
        AttachedPolicies: [...user(f.get('UserName')).attached].map((arn) => ({
          PolicyArn: arn,
          PolicyName: arn.split('/').pop(),
        })),
        IsTruncated: false,
      }),
    ],
    [
      'PutUserPolicy',
      (f) => {
        const doc = f.get('PolicyDocument') ?? '';
        try {
          JSON.parse(doc);
        } catch {
          throw new AwsError('MalformedPolicyDocument', 'Syntax errors in policy.');
        }
        user(f.get('UserName')).inline.set(f.get('PolicyName') ?? '', doc);
        return {};
      },
    ],
    ['DeleteUserPolicy', (f) => removed(user(f.get('UserName')).inline, f.get('PolicyName'))],
    ['ListUserPolicies', (f) => ({ PolicyNames: [...user(f.get('UserName')).inline.keys()], IsTruncated: false })],
    [
      'CreateAccessKey',
      (f, s) => {
        const u = user(f.get('UserName') ?? s.principal.user ?? '');
        const k = newKey({ arn: userArn(u), userId: u.userId, user: u.name });
        u.keys.add(k.accessKeyId);
        return {
          AccessKey: {
            UserName: u.name,
            AccessKeyId: k.accessKeyId,
            SecretAccessKey: k.secretAccessKey,
            Status: 'Active',
            CreateDate: new Date(),
          },
        };
      },
    ],
    [
      'DeleteAccessKey',
      (f, s) => {
        const u = user(f.get('UserName') ?? s.principal.user ?? '');
        const keyId = f.get('AccessKeyId') ?? '';
        if (!u.keys.delete(keyId))
          throw new AwsError('NoSuchEntity', `The Access Key with id ${keyId} cannot be found.`, 404);
        keys.delete(keyId);
        return {};
      },
    ],
    [
      'ListAccessKeys',
      (f) => ({
        AccessKeyMetadata: [...user(f.get('UserName')).keys].map((k) => ({
          UserName: f.get('UserName'),
          AccessKeyId: k,
          Status: 'Active',
        })),
        IsTruncated: false,
      }),
    ],
    ['ListGroupPolicies', (f) => ({ PolicyNames: [...group(f.get('GroupName')).inline.keys()], IsTruncated: false })],
    [
      'GetGroupPolicy',
      (f) => {
        const name = f.get('PolicyName') ?? '';
        const doc = group(f.get('GroupName')).inline.get(name);
        if (doc === undefined) throw new AwsError('NoSuchEntity', `The group policy ${name} cannot be found.`, 404);
        // IAM answers policy documents URL-encoded (RFC 3986).
        return { GroupName: f.get('GroupName'), PolicyName: name, PolicyDocument: encodeURIComponent(doc) };
      },
    ],
    [
      'ListAttachedGroupPolicies',
      (f) => ({
        AttachedPolicies: group(f.get('GroupName')).attached.map((arn) => ({
          PolicyArn: arn,
          PolicyName: arn.split('/').pop(),
        })),
        IsTruncated: false,
      }),
    ],
    [
      'GetRole',
      (f) => {
        const name = f.get('RoleName') ?? '';
        const r = roles.get(name);
        if (!r) throw new AwsError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404);
        return { Role: { Path: r.path, RoleName: name, RoleId: r.roleId, Arn: r.arn, CreateDate: new Date() } };
      },
    ],
    [
      'GetInstanceProfile',
      (f) => {
        const name = f.get('InstanceProfileName') ?? '';
        const roleName = profiles.get(name);
        const r = roles.get(roleName ?? '');
        if (!r) throw new AwsError('NoSuchEntity', `Instance Profile ${name} cannot be found.`, 404);
        return {
          InstanceProfile: {
            Path: '/',
            InstanceProfileName: name,
            InstanceProfileId: 'AIPA0',
            CreateDate: new Date(),
            Arn: `arn:aws:iam::${account}:instance-profile/${name}`,
            Roles: [{ Path: r.path, RoleName: roleName, RoleId: r.roleId, Arn: r.arn, CreateDate: new Date() }],
          },
        };
      },
    ],
  ]);
  const sts = new Map<string, Handler>([
    ['GetCallerIdentity', (_f, s) => ({ Arn: s.principal.arn, UserId: s.principal.userId, Account: account })],
    [
      'AssumeRole',
      (f) => {
        logPolicies('AssumeRole', f);
        const arn = f.get('RoleArn') ?? '';
        const name = [...roles.entries()].find(([, r]) => r.arn === arn)?.[0];
        if (!name) throw new AwsError('AccessDenied', `Not authorized to perform sts:AssumeRole on ${arn}`, 403);
        const c = roleSession(name, f.get('RoleSessionName') ?? '', Number(f.get('DurationSeconds') ?? 3600));
        return { Credentials: stsCreds(c), AssumedRoleUser: { Arn: c.arn, AssumedRoleId: c.assumedRoleId } };
      },
    ],
    [
      'GetFederationToken',
      (f, s) => {
        logPolicies('GetFederationToken', f);
        const name = f.get('Name') ?? '';
        if (name.length < 2 || name.length > 32)
          throw new AwsError('ValidationError', 'Name must be 2 to 32 characters');
        const arn = `arn:aws:sts::${account}:federated-user/${name}`;
        const sessionToken = randomBytes(24).toString('base64');
        const k = newKey({ arn, userId: `${account}:${name}` }, sessionToken);
        void s;
        const expiration = new Date(Date.now() + Number(f.get('DurationSeconds') ?? 43200) * 1000);
        return {
          Credentials: stsCreds({ ...k, sessionToken, expiration }),
          FederatedUser: { Arn: arn, FederatedUserId: `${account}:${name}` },
        };
      },
    ],
    [
      'GetSessionToken',
      (f, s) => {
        const sessionToken = randomBytes(24).toString('base64');
        const k = newKey(s.principal, sessionToken);
        const expiration = new Date(Date.now() + Number(f.get('DurationSeconds') ?? 43200) * 1000);
        return { Credentials: stsCreds({ ...k, sessionToken, expiration }) };
      },
    ],
  ]);
  const ec2 = new Map<string, Handler>([
    [
      'DescribeInstances',
      (f) => {
        const wanted = listOf(f, 'InstanceId');
        const found = wanted.map((w) => instances.get(w)).filter((i) => i !== undefined);
        if (found.length < wanted.length)
          throw new AwsError('InvalidInstanceID.NotFound', `The instance IDs '${wanted.join(', ')}' do not exist`);
        return {
          reservationSet: found.map((i) => ({
            reservationId: 'r-0',
            ownerId: account,
            instancesSet: [
              {
                instanceId: i.instanceId,
                imageId: i.imageId,
                instanceState: { code: 16, name: i.state ?? 'running' },
                vpcId: i.vpcId,
                subnetId: i.subnetId,
                iamInstanceProfile: i.profileArn ? { arn: i.profileArn, id: 'AIPA0' } : undefined,
                tagSet: Object.entries(i.tags ?? {}).map(([key, value]) => ({ key, value })),
              },
            ],
          })),
        };
      },
    ],
  ]);
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
