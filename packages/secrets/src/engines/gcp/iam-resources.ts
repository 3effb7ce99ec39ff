import type { GoogleApis } from '../../google/apis.js';
import { InvalidRequestError } from '../../logical/errors.js';

/** A resource whose IAM policy the engine edits, by the API that holds the policy. */
export type IamResource =
  | { kind: 'project'; name: string }
  | { kind: 'organization'; name: string }
  | { kind: 'folder'; name: string }
  | { kind: 'service account'; name: string };

const CRM = String.raw`(?://cloudresourcemanager\.googleapis\.com/|https://cloudresourcemanager\.googleapis\.com/v[123]/)?`;
const PATTERNS: [IamResource['kind'], RegExp][] = [
  ['project', new RegExp(`^${CRM}(projects/[a-z][a-z0-9-]{4,28}[a-z0-9])$`)],
  ['organization', new RegExp(`^${CRM}(organizations/\\d+)$`)],
  ['folder', new RegExp(`^${CRM}(folders/\\d+)$`)],
  [
    'service account',
    /^(?:\/\/iam\.googleapis\.com\/|https:\/\/iam\.googleapis\.com\/v1\/)?(projects\/[a-z][a-z0-9-]{4,28}[a-z0-9]\/serviceAccounts\/[^/\s@]+@[^/\s]+)$/,
  ],
];

/**
 * A binding's resource, as the established engine names them: the full resource name
 * (`//cloudresourcemanager.googleapis.com/projects/<id>`, `…/organizations/<n>`, `…/folders/<n>`,
 * `//iam.googleapis.com/projects/<p>/serviceAccounts/<email>`), its `https://` form, or the
 * relative name. Other types (buckets, datasets, topics…) are refused with 400.
 */
export function parseIamResource(resource: string): IamResource {
  for (const [kind, pattern] of PATTERNS) {
    const name = pattern.exec(resource)?.[1];
    if (name) return { kind, name } as IamResource;
  }
  throw new InvalidRequestError(
    `unsupported resource "${resource}": projects, folders, organizations and service accounts are bound here`,
  );
}

/** The policy as the APIs share it (`bindings` of `role` and `members`, an `etag`). */
export interface IamPolicy {
  version?: number | null;
  etag?: string | null;
  bindings?: { role?: string | null; members?: string[] | null; condition?: unknown }[] | null;
}

/** Reads and writes the resource's policy through the SDK client that holds it. */
export function policyOf(apis: GoogleApis, r: IamResource) {
  const body = {};
  switch (r.kind) {
    case 'project': {
      const resource = r.name.slice('projects/'.length);
      return {
        get: () => apis.resourceManager.projects.getIamPolicy({ resource, requestBody: body }),
        set: (policy: IamPolicy) =>
          apis.resourceManager.projects.setIamPolicy({ resource, requestBody: { policy: policy as never } }),
      };
    }
    case 'organization':
      return {
        get: () => apis.resourceManager.organizations.getIamPolicy({ resource: r.name, requestBody: body }),
        set: (policy: IamPolicy) =>
          apis.resourceManager.organizations.setIamPolicy({
            resource: r.name,
            requestBody: { policy: policy as never },
          }),
      };
    case 'folder':
      return {
        get: () => apis.folders.folders.getIamPolicy({ resource: r.name, requestBody: body }),
        set: (policy: IamPolicy) =>
          apis.folders.folders.setIamPolicy({ resource: r.name, requestBody: { policy: policy as never } }),
      };
    case 'service account':
      return {
        get: () => apis.iam.projects.serviceAccounts.getIamPolicy({ resource: r.name }),
        set: (policy: IamPolicy) =>
          apis.iam.projects.serviceAccounts.setIamPolicy({
            resource: r.name,
            requestBody: { policy: policy as never },
          }),
      };
  }
}
