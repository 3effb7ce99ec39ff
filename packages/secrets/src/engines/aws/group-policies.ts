import { GetGroupPolicyCommand, ListAttachedGroupPoliciesCommand, ListGroupPoliciesCommand } from '@aws-sdk/client-iam';
import { UpstreamError } from '../../logical/errors.js';
import { iamClientOf, upstream } from './aws-clients.js';
import type { AwsEngineRole, RootConfig } from './aws-engine-store.js';

/** A policy document's statements (one statement object or a list). */
function statementsOf(doc: string, where: string): unknown[] {
  let parsed: { Statement?: unknown };
  try {
    parsed = JSON.parse(doc);
  } catch (err) {
    throw new UpstreamError(`the policy document of ${where} is not JSON`, { cause: err });
  }
  const s = parsed.Statement;
  return Array.isArray(s) ? s : s === undefined ? [] : [s];
}

/**
 * The session policy of an STS role with `iam_groups`: the role's document and every group's
 * inline policies merged into one document, and the groups' attached policies added to the
 * role's ARNs, as the established engine passes them to AssumeRole / GetFederationToken.
 */
export async function withGroupPolicies(
  config: RootConfig | undefined,
  role: AwsEngineRole,
): Promise<{ policyDocument: string; policyArns: string[] }> {
  if (role.iam_groups.length === 0) return { policyDocument: role.policy_document, policyArns: role.policy_arns };
  const client = iamClientOf(config);
  const statements: unknown[] = role.policy_document ? statementsOf(role.policy_document, 'the role') : [];
  const arns = new Set(role.policy_arns);
  try {
    for (const group of role.iam_groups) {
      const inline = await client.send(new ListGroupPoliciesCommand({ GroupName: group }));
      for (const name of inline.PolicyNames ?? []) {
        const got = await client.send(new GetGroupPolicyCommand({ GroupName: group, PolicyName: name }));
        // IAM answers the document URL-encoded.
        statements.push(...statementsOf(decodeURIComponent(got.PolicyDocument ?? ''), `group ${group}`));
      }
      const attached = await client.send(new ListAttachedGroupPoliciesCommand({ GroupName: group }));
      for (const p of attached.AttachedPolicies ?? []) if (p.PolicyArn) arns.add(p.PolicyArn);
    }
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw upstream('error reading the policies of iam_groups', err);
  } finally {
    client.destroy();
  }
  const policyDocument = statements.length > 0 ? JSON.stringify({ Version: '2012-10-17', Statement: statements }) : '';
  return { policyDocument, policyArns: [...arns] };
}
