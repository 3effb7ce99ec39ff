import { startTestServer, type TestResponse, type TestServer } from '../src/server/testing.js';
import { type FakeAws, startFakeAws } from './fakes/aws-iam-sts.js';

/** A server with the aws auth method at `auth/aws`, its client config on a fake IAM/STS/EC2, and a `dev` policy. */
export interface AwsAuthFixture {
  t: TestServer;
  aws: FakeAws;
  /** A request that must succeed; its body. */
  ok(method: string, path: string, body?: unknown): Promise<TestResponse['body']>;
  /** `POST auth/aws/login` without a token. */
  login(body: Record<string, string>): ReturnType<TestServer['request']>;
  /** A login's status and error text, as `"403 …"`. */
  status(body: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

/** The `config/client` of an aws mount that reaches the fake cloud as `admin`, failing at once (no retries). */
export function awsClientConfig(aws: FakeAws, admin: { accessKeyId: string; secretAccessKey: string }) {
  return {
    access_key: admin.accessKeyId,
    secret_key: admin.secretAccessKey,
    endpoint: aws.endpoint,
    iam_endpoint: aws.endpoint,
    sts_endpoint: aws.endpoint,
    max_retries: 0,
  };
}

/** Starts the fake cloud and the server; `principals` adds the test's users before the server's own admin user. */
export async function startAwsAuth(principals: (aws: FakeAws) => void = () => {}): Promise<AwsAuthFixture> {
  const aws = await startFakeAws();
  principals(aws);
  const admin = aws.addUser('ward-admin');
  const t = await startTestServer();
  const { ok } = t;
  const login = (body: Record<string, string>) => t.request('POST', 'auth/aws/login', { token: null, body });
  const status = async (body: Record<string, string>) => {
    const res = await login(body);
    return `${res.status} ${(res.body.errors ?? []).join(' ')}`;
  };
  await ok('POST', 'sys/auth/aws', { type: 'aws' });
  await ok('POST', 'auth/aws/config/client', awsClientConfig(aws, admin));
  await ok('PUT', 'sys/policies/acl/dev', { policy: 'path "secret/*" { capabilities = ["read"] }' });
  return {
    t,
    aws,
    ok,
    login,
    status,
    stop: async () => {
      await t.stop();
      await aws.close();
    },
  };
}
