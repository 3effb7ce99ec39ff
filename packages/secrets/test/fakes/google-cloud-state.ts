import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';

/**
 * What the fake Google Cloud holds: service accounts and their keys, projects' IAM policies and
 * ancestry, Compute Engine instances and instance groups. Plain data; `google-cloud.ts` serves it.
 */
export interface FakeKey {
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface FakeServiceAccount {
  email: string;
  uniqueId: string;
  projectId: string;
  displayName: string;
  description: string;
  keys: Map<string, FakeKey>;
}

export interface FakeBinding {
  role: string;
  members: string[];
}

export interface FakePolicy {
  version: number;
  etag: string;
  bindings: FakeBinding[];
}

export interface FakeInstance {
  project: string;
  zone: string;
  name: string;
  id: string;
  labels: Record<string, string>;
  serviceAccount: string;
}

/** A zonal group (`zone`) or a regional one (`region`), and its members by instance name. */
export interface FakeInstanceGroup {
  project: string;
  name: string;
  zone?: string;
  region?: string;
  members: string[];
}

export const newKey = (): FakeKey => ({
  id: randomBytes(20).toString('hex'),
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }),
});

export class FakeGoogleCloudState {
  readonly accounts = new Map<string, FakeServiceAccount>();
  readonly policies = new Map<string, FakePolicy>();
  /** Project → ancestors above it, nearest first (`folder`/`organization`, id). */
  readonly ancestry = new Map<string, [string, string][]>();
  readonly instances = new Map<string, FakeInstance>();
  readonly groups: FakeInstanceGroup[] = [];
  private nextId = 100000000000000000000n;

  addServiceAccount(projectId: string, accountId: string, displayName = '', description = ''): FakeServiceAccount {
    const email = `${accountId}@${projectId}.iam.gserviceaccount.com`;
    this.nextId += 1n;
    const account: FakeServiceAccount = {
      email,
      uniqueId: this.nextId.toString(),
      projectId,
      displayName,
      description,
      keys: new Map(),
    };
    this.accounts.set(email, account);
    return account;
  }

  /** By email or unique id. */
  account(emailOrId: string): FakeServiceAccount | undefined {
    const byEmail = this.accounts.get(emailOrId);
    if (byEmail) return byEmail;
    for (const account of this.accounts.values()) if (account.uniqueId === emailOrId) return account;
    return undefined;
  }

  policy(resource: string): FakePolicy {
    let policy = this.policies.get(resource);
    if (!policy) {
      policy = { version: 1, etag: randomBytes(6).toString('base64'), bindings: [] };
      this.policies.set(resource, policy);
    }
    return policy;
  }

  /** Members bound to `role` on `resource`. */
  members(resource: string, role: string): string[] {
    return this.policy(resource).bindings.find((b) => b.role === role)?.members ?? [];
  }

  addInstance(instance: Omit<FakeInstance, 'id'>): FakeInstance {
    this.nextId += 1n;
    const full = { ...instance, id: this.nextId.toString() };
    this.instances.set(`${instance.project}/${instance.zone}/${instance.name}`, full);
    return full;
  }
}
