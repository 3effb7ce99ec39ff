import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { requestJson } from '../common/http-json.js';
import type { KubernetesConfig } from './k8s-store.js';

/** A Kubernetes label selector (`matchLabels`, `matchExpressions`), as roles bind namespaces by their labels. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** Parses `bound_service_account_namespace_selector` (JSON); '' is none. */
export function parseSelector(text: string): LabelSelector | undefined {
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InvalidRequestError('invalid "bound_service_account_namespace_selector" configured: not JSON');
  }
  const s = parsed as LabelSelector;
  const isValid =
    typeof s === 'object' &&
    s !== null &&
    (s.matchLabels === undefined || Object.values(s.matchLabels).every((v) => typeof v === 'string')) &&
    (s.matchExpressions === undefined ||
      (Array.isArray(s.matchExpressions) &&
        s.matchExpressions.every((e) => typeof e?.key === 'string' && OPERATORS.has(e.operator))));
  if (!isValid) throw new InvalidRequestError('invalid "bound_service_account_namespace_selector" configured');
  return s;
}

/** Whether `labels` satisfy every requirement of the selector. */
export function matchesSelector(selector: LabelSelector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key] ?? '';
    const values = e.values ?? [];
    if (e.operator === 'In' && !(has && values.includes(value))) return false;
    if (e.operator === 'NotIn' && has && values.includes(value)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** The namespace's labels, asked of the API server (`GET /api/v1/namespaces/<name>`) with the reviewer JWT. */
export async function namespaceLabels(
  config: KubernetesConfig,
  namespace: string,
  jwt: string,
): Promise<Record<string, string>> {
  const answer = await requestJson({
    url: `${config.kubernetes_host.replace(/\/$/, '')}/api/v1/namespaces/${encodeURIComponent(namespace)}`,
    headers: { Authorization: `Bearer ${config.token_reviewer_jwt || jwt}` },
    caPem: config.kubernetes_ca_cert || undefined,
    service: 'Kubernetes namespaces',
  });
  if (answer.status !== 200)
    throw new UpstreamError(`Kubernetes: reading namespace ${namespace} answered ${answer.status}`);
  const labels = (answer.body as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels;
  return labels ?? {};
}
