import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { tokenGrant } from '../common/index.js';
import { type Ec2Deps, ec2Login } from './ec2-login.js';
import { iamLogin } from './iam-login.js';

/** `login`: iam (a signed sts:GetCallerIdentity request) or ec2 (a signed instance identity document). */
export function pathLogin(d: Ec2Deps): PathDefinition {
  return definePath({
    pattern: 'login',
    fields: {
      role: field.string({ description: 'Role (iam default: the principal’s name; ec2 default: the AMI id).' }),
      iam_http_request_method: field.string({ description: 'iam: method of the signed request (POST).' }),
      iam_request_url: field.string({ description: 'iam: base64 of the signed request’s URL.' }),
      iam_request_body: field.string({ description: 'iam: base64 of the signed request’s body.' }),
      iam_request_headers: field.string({
        description: 'iam: base64 of the JSON map of the signed request’s headers.',
      }),
      pkcs7: field.string({ description: 'ec2: the PKCS#7 signed identity document (base64).' }),
      identity: field.string({ description: 'ec2: base64 of the identity document (with `signature`).' }),
      signature: field.string({ description: 'ec2: base64 SHA256-RSA signature of `identity`.' }),
      nonce: field.string({ description: 'ec2: the nonce of the instance’s first login.' }),
    },
    operations: {
      update: {
        summary: 'Log in with an AWS identity.',
        handler: async ({ storage, data }) => {
          const login =
            data.iam_http_request_method !== undefined
              ? await iamLogin(storage, data, d.clock)
              : await ec2Login(storage, data, d);
          const grant = tokenGrant(login.role.token);
          const narrowed = login.policies ? { policies: login.policies } : {};
          const capped = login.maxTtl
            ? { maxTtl: grant.maxTtl ? Math.min(grant.maxTtl, login.maxTtl) : login.maxTtl }
            : {};
          return {
            login: {
              aliasName: login.aliasName,
              displayName: login.displayName,
              metadata: login.metadata,
              ...grant,
              ...narrowed,
              ...capped,
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with an AWS identity.',
      description:
        'Needs no token. iam: the signed request is forwarded to STS (403 when STS refuses its signature, 502 when ' +
        'STS cannot be asked). ec2: the document is verified with AWS’s certificates and the instance looked up.',
    },
  });
}
