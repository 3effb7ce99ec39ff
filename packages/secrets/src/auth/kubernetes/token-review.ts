import { PermissionDeniedError, UpstreamError } from '../../logical/errors.js';
import { requestJson } from '../common/http-json.js';
import type { KubernetesConfig } from './k8s-store.js';

/** What the cluster says about a token: who it belongs to. */
export interface ReviewedUser {
  /** `system:serviceaccount:<namespace>:<name>`. */
  username: string;
  uid: string;
}

/**
 * Asks the API server (`POST /apis/authentication.k8s.io/v1/tokenreviews`) whether `jwt` is a
 * live service account token, as the cluster's own TokenReview API answers: a token it does not
 * authenticate (deleted account, expired, wrong audience) is a 403; the API unreachable or
 * refusing the reviewer is a 502.
 */
export async function reviewToken(config: KubernetesConfig, jwt: string, audiences: string[]): Promise<ReviewedUser> {
  const bearer = config.token_reviewer_jwt || jwt;
  const answer = await requestJson({
    url: `${config.kubernetes_host.replace(/\/$/, '')}/apis/authentication.k8s.io/v1/tokenreviews`,
    method: 'POST',
    headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: jwt, ...(audiences.length > 0 ? { audiences } : {}) },
    }),
    caPem: config.kubernetes_ca_cert || undefined,
    service: 'Kubernetes TokenReview',
  });
  const body = answer.body as
    | { status?: { authenticated?: boolean; error?: string; user?: { username?: string; uid?: string } } }
    | undefined;
  if (answer.status === 401 || answer.status === 403) {
    // Without a reviewer JWT the login's own token made the request: refused means not valid.
    if (!config.token_reviewer_jwt) throw PermissionDeniedError.denied();
    throw new UpstreamError(`Kubernetes TokenReview: the API server refused the reviewer (${answer.status})`);
  }
  if (answer.status !== 201 && answer.status !== 200)
    throw new UpstreamError(`Kubernetes TokenReview: the API server answered ${answer.status}`);
  const status = body?.status;
  if (!status?.authenticated)
    throw new PermissionDeniedError(
      'lookup failed: service account unauthorized; this could mean it has been deleted or recreated with a new token',
    );
  return { username: status.user?.username ?? '', uid: status.user?.uid ?? '' };
}
