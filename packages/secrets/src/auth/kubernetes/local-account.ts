import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KubernetesConfig } from './k8s-store.js';

/** Where a pod finds its own service account's CA certificate and token (mounted by the kubelet). */
export interface LocalServiceAccount {
  caPath: string;
  tokenPath: string;
}

/** The established default: the kubelet's service account mount in every pod. */
export const DEFAULT_SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export function localServiceAccountIn(dir: string): LocalServiceAccount {
  return { caPath: join(dir, 'ca.crt'), tokenPath: join(dir, 'token') };
}

async function readIfPresent(path: string): Promise<string> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return '';
  }
}

/**
 * The configuration a login uses, as established: unless `disable_local_ca_jwt`, an unset
 * `kubernetes_ca_cert` and `token_reviewer_jwt` come from the pod's own CA and token files when
 * they exist (read at each login: the kubelet rotates the token).
 */
export async function withLocalAccount(
  config: KubernetesConfig,
  local: LocalServiceAccount,
): Promise<KubernetesConfig> {
  if (config.disable_local_ca_jwt) return config;
  if (config.kubernetes_ca_cert && config.token_reviewer_jwt) return config;
  const [ca, token] = await Promise.all([
    config.kubernetes_ca_cert ? config.kubernetes_ca_cert : readIfPresent(local.caPath),
    config.token_reviewer_jwt ? config.token_reviewer_jwt : readIfPresent(local.tokenPath),
  ]);
  return { ...config, kubernetes_ca_cert: ca, token_reviewer_jwt: token };
}
