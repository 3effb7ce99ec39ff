import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { parseBindings } from './bindings.js';
import { parseIamResource } from './iam-resources.js';

const HCL = `
resource "//cloudresourcemanager.googleapis.com/projects/my-project-1" {
  roles = ["roles/viewer", "roles/viewer", "projects/my-project-1/roles/custom.role"]
}
resource "projects/other-project" {
  roles = ["roles/editor"]
}`;

describe('gcp engine bindings', () => {
  it('parses HCL, JSON and base64 of either, each resource once and its roles deduplicated', () => {
    const expected = [
      [
        '//cloudresourcemanager.googleapis.com/projects/my-project-1',
        ['roles/viewer', 'projects/my-project-1/roles/custom.role'],
      ],
      ['projects/other-project', ['roles/editor']],
    ];
    assert.deepEqual(parseBindings(HCL), expected);
    assert.deepEqual(parseBindings(Buffer.from(HCL).toString('base64')), expected);
    const json = JSON.stringify({
      resource: { 'projects/other-project': { roles: ['roles/editor'] } },
    });
    assert.deepEqual(parseBindings(json), [['projects/other-project', ['roles/editor']]]);
  });

  it('refuses what is not resource blocks of roles, and resources of other types', () => {
    for (const bad of [
      '',
      'resource {',
      'role "x" { roles = ["roles/viewer"] }',
      'resource "projects/my-project-1" { roles = "roles/viewer" }',
      'resource "projects/my-project-1" { roles = ["viewer"] }',
      'resource "//storage.googleapis.com/projects/_/buckets/b" { roles = ["roles/viewer"] }',
    ])
      assert.throws(() => parseBindings(bad), InvalidRequestError, bad);
    assert.throws(() => parseIamResource('projects/UPPER'), InvalidRequestError);
    assert.throws(
      () => parseIamResource('//iam.googleapis.com/projects/p-1234/serviceAccounts/no-at'),
      InvalidRequestError,
    );
  });

  it('names the policy holder of projects, folders, organizations and service accounts', () => {
    const cases: [string, string, string][] = [
      ['https://cloudresourcemanager.googleapis.com/v1/projects/my-project-1', 'project', 'projects/my-project-1'],
      ['//cloudresourcemanager.googleapis.com/folders/123', 'folder', 'folders/123'],
      ['organizations/42', 'organization', 'organizations/42'],
      [
        '//iam.googleapis.com/projects/my-project-1/serviceAccounts/a@my-project-1.iam.gserviceaccount.com',
        'service account',
        'projects/my-project-1/serviceAccounts/a@my-project-1.iam.gserviceaccount.com',
      ],
    ];
    for (const [resource, kind, name] of cases) assert.deepEqual(parseIamResource(resource), { kind, name }, resource);
  });
});
