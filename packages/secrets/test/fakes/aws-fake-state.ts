import { randomBytes } from 'node:crypto';
import type { XmlValue } from './aws-query-xml.js';
import type { KnownKey, Signer } from './sigv4-check.js';

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

export class AwsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Deletes `key` from a user's set or map; IAM answers NoSuchEntity for what is not there. */
export function removed(from: Set<string> | Map<string, string>, key: string | null): Record<string, never> {
  if (!from.delete(key ?? '')) throw new AwsError('NoSuchEntity', `${key} is not attached to the user.`, 404);
  return {};
}

export const IAM_NS = 'https://iam.amazonaws.com/doc/2010-05-08/';
export const STS_NS = 'https://sts.amazonaws.com/doc/2011-06-15/';
export const id = (prefix: string, n = 16) => prefix + randomBytes(n).toString('hex').toUpperCase().slice(0, n);

/** Who a key signs as. */
export interface Principal {
  arn: string;
  userId: string;
  user?: string;
}

/** One action: the request's form and its verified signer, to the fields of the answer. */
export type Handler = (form: URLSearchParams, signer: Signer & { principal: Principal }) => Record<string, XmlValue>;

export type AwsState = ReturnType<typeof createAwsState>;

/** The state of the fake AWS (users, roles, groups, instances, issued keys) and the helpers its actions share. */
export function createAwsState(account: string) {
  const keys = new Map<string, KnownKey & { principal: Principal }>();
  const users = new Map<string, FakeUser>();
  const roles = new Map<string, { arn: string; roleId: string; path: string }>();
  const groups = new Map<string, { inline: Map<string, string>; attached: string[] }>();
  const stsPolicies: { action: string; policy: string; policyArns: string[] }[] = [];
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
  return {
    account,
    keys,
    users,
    roles,
    groups,
    stsPolicies,
    logPolicies,
    group,
    profiles,
    instances,
    calls,
    failing,
    newKey,
    userArn,
    user,
    createUser,
    userXml,
    roleSession,
    stsCreds,
  };
}
