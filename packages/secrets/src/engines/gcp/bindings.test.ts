import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { parseBindings, projectOfResource } from './bindings.js';

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

  it('refuses what is not resource blocks of roles, and resources other than projects', () => {
    for (const bad of [
      '',
      'resource {',
      'role "x" { roles = ["roles/viewer"] }',
      'resource "projects/my-project-1" { roles = "roles/viewer" }',
      'resource "projects/my-project-1" { roles = ["viewer"] }',
      'resource "//storage.googleapis.com/projects/_/buckets/b" { roles = ["roles/viewer"] }',
    ])
      assert.throws(() => parseBindings(bad), InvalidRequestError, bad);
    assert.equal(
      projectOfResource('https://cloudresourcemanager.googleapis.com/v1/projects/my-project-1'),
      'my-project-1',
    );
    assert.throws(() => projectOfResource('projects/UPPER'), InvalidRequestError);
  });
});
