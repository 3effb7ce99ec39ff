import { type GoogleApis, googleCall, googleFind, googleStatus } from '../../google/apis.js';
import { createServiceAccountKey, deleteServiceAccountKey } from '../../google/service-account-keys.js';
import { UpstreamError } from '../../logical/errors.js';
import type { Bindings } from './gcp-store.js';
import { type IamPolicy, parseIamResource, policyOf } from './iam-resources.js';

/** setIamPolicy refused for a stale etag: read again and retry, this often. */
const POLICY_ATTEMPTS = 5;

const accountName = (email: string) => `projects/-/serviceAccounts/${email}`;

/** The cloud operations of the engine, through the official SDK clients. */
export const gcpCloud = {
  async getAccount(apis: GoogleApis, email: string) {
    return googleFind(`looking up service account ${email}`, () =>
      apis.iam.projects.serviceAccounts.get({ name: accountName(email) }),
    );
  },

  async createAccount(apis: GoogleApis, project: string, accountId: string, displayName: string): Promise<string> {
    const account = await googleCall(`creating service account ${accountId} in ${project}`, () =>
      apis.iam.projects.serviceAccounts.create({
        name: `projects/${project}`,
        requestBody: { accountId, serviceAccount: { displayName, description: 'Managed by Ward' } },
      }),
    );
    if (!account.email) throw new UpstreamError('IAM created a service account without an email');
    return account.email;
  },

  /** Deletes the account; one already gone is deleted. */
  async deleteAccount(apis: GoogleApis, email: string): Promise<void> {
    await googleFind(`deleting service account ${email}`, () =>
      apis.iam.projects.serviceAccounts.delete({ name: accountName(email) }),
    );
  },

  createKey: createServiceAccountKey,
  deleteKey: deleteServiceAccountKey,

  /**
   * Adds (or removes) `member` to each role of each bound resource: read the project's policy,
   * edit its bindings, write it back with the etag read (a concurrent change is retried).
   */
  async editBindings(apis: GoogleApis, member: string, bindings: Bindings, mode: 'add' | 'remove'): Promise<void> {
    for (const [resource, roles] of bindings) {
      const policy = policyOf(apis, parseIamResource(resource));
      for (let attempt = 1; ; attempt++) {
        const current = await googleCall(`reading the IAM policy of ${resource}`, policy.get);
        try {
          await policy.set(edited(current, member, roles, mode));
          break;
        } catch (err) {
          if (googleStatus(err) === 409 && attempt < POLICY_ATTEMPTS) continue;
          await googleCall(`setting the IAM policy of ${resource}`, () => Promise.reject(err));
        }
      }
    }
  },

  async generateAccessToken(apis: GoogleApis, email: string, scopes: string[], lifetimeS: number) {
    const token = await googleCall(`generating an access token for ${email}`, () =>
      apis.iamCredentials.projects.serviceAccounts.generateAccessToken({
        name: accountName(email),
        requestBody: { scope: scopes, lifetime: `${lifetimeS}s` },
      }),
    );
    if (!token.accessToken || !token.expireTime) throw new UpstreamError('IAM credentials answered no token');
    return { token: token.accessToken, expiresAtS: Math.floor(Date.parse(token.expireTime) / 1000) };
  },
};

function edited(policy: IamPolicy, member: string, roles: string[], mode: 'add' | 'remove'): IamPolicy {
  const bindings = (policy.bindings ?? []).map((b) => ({ ...b, members: [...(b.members ?? [])] }));
  for (const role of roles) {
    let binding = bindings.find((b) => b.role === role && !b.condition);
    if (mode === 'add') {
      if (!binding) {
        binding = { role, members: [] };
        bindings.push(binding);
      }
      if (!binding.members.includes(member)) binding.members.push(member);
    } else if (binding) {
      binding.members = binding.members.filter((m) => m !== member);
    }
  }
  return { ...policy, bindings: bindings.filter((b) => b.members.length > 0) };
}
