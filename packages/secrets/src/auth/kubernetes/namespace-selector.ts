import { parse as parseYaml } from 'yaml';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { requestJson } from '../common/http-json.js';
import type { KubernetesConfig } from './k8s-store.js';

/** A Kubernetes label selector (`matchLabels`, `matchExpressions`), as roles bind namespaces by their labels. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses `bound_service_account_namespace_selector`, in YAML or JSON (JSON is YAML; the
 * established server decodes either); '' is none. Anything but a label selector is a 400.
 */
export function parseSelector(text: string): LabelSelector | undefined {
  if (text.trim() === '') return undefined;
  const invalid = () => new InvalidRequestError('invalid "bound_service_account_namespace_selector" configured');
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch {
    throw invalid();
  }
  if (!isPlainObject(parsed)) throw invalid();
  const { matchLabels, matchExpressions } = parsed;
  const isValid =
    (matchLabels === undefined ||
      (isPlainObject(matchLabels) && Object.values(matchLabels).every((v) => typeof v === 'string'))) &&
    (matchExpressions === undefined ||
      (Array.isArray(matchExpressions) &&
        matchExpressions.every(
          (e) =>
            isPlainObject(e) &&
            typeof e.key === 'string' &&
            OPERATORS.has(String(e.operator)) &&
            (e.values === undefined || (Array.isArray(e.values) && e.values.every((v) => typeof v === 'string'))),
        )));
  if (!isValid) throw invalid();
  return parsed as LabelSelector;
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
