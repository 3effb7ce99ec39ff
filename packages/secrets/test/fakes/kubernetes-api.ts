import { readFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportSPKI, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { createDevTls } from '../../src/server/dev-tls.js';

// The part of a Kubernetes API server the kubernetes auth method talks to, at the protocol
// level: `POST /apis/authentication.k8s.io/v1/tokenreviews` over TLS with a bearer token,
// answered as the real one answers (201 with status.authenticated and status.user, or with
// status.error; 401 for a caller it does not know). Service account tokens are JWTs this
// fake signs, projected (`kubernetes.io` claim) or legacy (`kubernetes.io/serviceaccount/*`).

export interface FakeKubernetes {
  url: string;
  caPem: string;
  /** The PEM public key service account tokens are signed with (the config's pem_keys). */
  publicKeyPem: string;
  /** TokenReviews received. */
  reviews: number;
  addServiceAccount(namespace: string, name: string): string;
  /** Labels of a namespace (`GET /api/v1/namespaces/<name>`; any namespace exists, unlabelled by default). */
  labelNamespace(namespace: string, labels: Record<string, string>): void;
  deleteServiceAccount(namespace: string, name: string): void;
  /** A projected token (`aud` default `https://kubernetes.default.svc`). */
  projectedToken(namespace: string, name: string, o?: { audience?: string; expiresInS?: number }): Promise<string>;
  legacyToken(namespace: string, name: string): Promise<string>;
  close(): Promise<void>;
}

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const DEFAULT_AUDIENCE = 'https://kubernetes.default.svc';

export async function startFakeKubernetes(): Promise<FakeKubernetes> {
  const tls = await createDevTls(Date.now());
  const [caPem, cert, key] = await Promise.all([
    readFile(tls.caFile, 'utf8'),
    readFile(tls.certFile),
    readFile(tls.keyFile),
  ]);
  await tls.remove();
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const accounts = new Map<string, string>();
  const namespaceLabels = new Map<string, Record<string, string>>();
  let nextUid = 1;
  const sign = (claims: Record<string, unknown>, k: CryptoKey = privateKey) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'sa-key' }).sign(k);
  const self: FakeKubernetes = {
    url: '',
    caPem,
    publicKeyPem: await exportSPKI(publicKey),
    reviews: 0,
    addServiceAccount: (namespace, name) => {
      const uid = `00000000-0000-4000-8000-${String(nextUid++).padStart(12, '0')}`;
      accounts.set(`${namespace}/${name}`, uid);
      return uid;
    },
    labelNamespace: (namespace, labels) => {
      namespaceLabels.set(namespace, labels);
    },
    deleteServiceAccount: (namespace, name) => {
      accounts.delete(`${namespace}/${name}`);
    },
    projectedToken: (namespace, name, o = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return sign({
        iss: ISSUER,
        sub: `system:serviceaccount:${namespace}:${name}`,
        aud: [o.audience ?? DEFAULT_AUDIENCE],
        iat: now,
        nbf: now,
        exp: now + (o.expiresInS ?? 3600),
        'kubernetes.io': { namespace, serviceaccount: { name, uid: accounts.get(`${namespace}/${name}`) ?? 'none' } },
      });
    },
    legacyToken: (namespace, name) =>
      sign({
        iss: 'kubernetes/serviceaccount',
        sub: `system:serviceaccount:${namespace}:${name}`,
        'kubernetes.io/serviceaccount/namespace': namespace,
        'kubernetes.io/serviceaccount/secret.name': `${name}-token-abcde`,
        'kubernetes.io/serviceaccount/service-account.name': name,
        'kubernetes.io/serviceaccount/service-account.uid': accounts.get(`${namespace}/${name}`) ?? 'none',
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  /** The account a token authenticates as, or why not (as the API server's authenticator says). */
  const authenticate = async (token: string, audiences: string[] | undefined) => {
    try {
      const { payload } = await jwtVerify(token, publicKey, {
        ...(audiences ? { audience: audiences } : {}),
      });
      const sub = String(payload.sub ?? '');
      const [, , namespace = '', name = ''] = sub.split(':');
      const uid = accounts.get(`${namespace}/${name}`);
      const claimed =
        (payload['kubernetes.io'] as { serviceaccount?: { uid?: string } } | undefined)?.serviceaccount?.uid ??
        payload['kubernetes.io/serviceaccount/service-account.uid'];
      if (!uid || uid !== claimed) return { error: `service account ${namespace}/${name} has been deleted` };
      return {
        user: {
          username: sub,
          uid,
          groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
        },
      };
    } catch (err) {
      return { error: `[invalid bearer token, ${(err as Error).message}]` };
    }
  };

  const server = https.createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const send = (status: number, body: unknown) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        const namespace = /^\/api\/v1\/namespaces\/([^/]+)$/.exec(req.url ?? '')?.[1];
        if (req.method === 'GET' && namespace) {
          const caller = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
          if (!('user' in (await authenticate(caller, undefined)))) {
            send(401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 });
            return;
          }
          const name = decodeURIComponent(namespace);
          send(200, {
            kind: 'Namespace',
            apiVersion: 'v1',
            metadata: { name, labels: namespaceLabels.get(name) ?? {} },
          });
          return;
        }
        if (req.method !== 'POST' || req.url !== '/apis/authentication.k8s.io/v1/tokenreviews') {
          send(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
          return;
        }
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        if (!('user' in (await authenticate(bearer, undefined)))) {
          send(401, {
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            message: 'Unauthorized',
            reason: 'Unauthorized',
            code: 401,
          });
          return;
        }
        self.reviews += 1;
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          spec?: { token?: string; audiences?: string[] };
        };
        const audiences = review.spec?.audiences;
        const result = await authenticate(review.spec?.token ?? '', audiences);
        const status =
          'user' in result
            ? { authenticated: true, user: result.user, audiences: audiences ?? [DEFAULT_AUDIENCE] }
            : { user: {}, error: result.error };
        send(201, {
          kind: 'TokenReview',
          apiVersion: 'authentication.k8s.io/v1',
          metadata: { creationTimestamp: null },
          spec: review.spec,
          status,
        });
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return self;
}
