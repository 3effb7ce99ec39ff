import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { isUsablePem } from '../common/pem-keys.js';
import { type KubernetesConfig, k8sStore } from './k8s-store.js';

/** `config`: the API server, its CA, the reviewer JWT (write-only) and optional local keys. */
export function pathConfig() {
  return definePath({
    pattern: 'config',
    fields: {
      kubernetes_host: field.string({ description: 'URL of the Kubernetes API server (required).' }),
      kubernetes_ca_cert: field.string({ description: 'CA certificate (PEM) of the API server.' }),
      token_reviewer_jwt: field.string({
        description: 'JWT allowed to create TokenReviews (default: the login JWT itself).',
        sensitive: true,
      }),
      pem_keys: field.commaStrings({
        description: 'PEM keys or certificates that verify service account JWTs locally.',
      }),
      issuer: field.string({
        description: 'The `iss` of service account JWTs (checked unless disable_iss_validation).',
      }),
      disable_iss_validation: field.bool({ description: 'Do not check `iss` (default true).' }),
      disable_local_ca_jwt: field.bool({
        description: 'Do not fall back on the pod’s own CA and token (/var/run/secrets/kubernetes.io/serviceaccount).',
      }),
    },
    operations: {
      update: {
        summary: 'Configure the method.',
        handler: async ({ storage, data, supplied }) => {
          const current = await k8sStore.config(storage);
          const pick = <T>(key: string, fallback: T): T =>
            supplied.has(key) ? (((data as Record<string, unknown>)[key] as T) ?? fallback) : fallback;
          const next: KubernetesConfig = {
            kubernetes_host: pick('kubernetes_host', current?.kubernetes_host ?? ''),
            kubernetes_ca_cert: pick('kubernetes_ca_cert', current?.kubernetes_ca_cert ?? ''),
            token_reviewer_jwt: pick('token_reviewer_jwt', current?.token_reviewer_jwt ?? ''),
            pem_keys: pick('pem_keys', current?.pem_keys ?? []),
            issuer: pick('issuer', current?.issuer ?? ''),
            disable_iss_validation: pick('disable_iss_validation', current?.disable_iss_validation ?? true),
            disable_local_ca_jwt: pick('disable_local_ca_jwt', current?.disable_local_ca_jwt ?? false),
          };
          await check(next);
          await k8sStore.putConfig(storage, next);
          return undefined;
        },
      },
      read: {
        summary: 'Read the configuration (without the reviewer JWT).',
        handler: async ({ storage }) => {
          const c = await k8sStore.config(storage);
          if (!c) throw new NotFoundError('');
          const { token_reviewer_jwt, ...shown } = c;
          return { data: { ...shown, token_reviewer_jwt_set: token_reviewer_jwt !== '' } };
        },
      },
    },
    help: {
      synopsis: 'Configure the Kubernetes auth method.',
      description: 'Logins are checked with the cluster’s TokenReview API at kubernetes_host.',
    },
  });
}

async function check(c: KubernetesConfig): Promise<void> {
  if (!c.kubernetes_host) throw new InvalidRequestError('no host provided');
  if (!/^https?:\/\/\S+$/.test(c.kubernetes_host))
    throw new InvalidRequestError('kubernetes_host must be an http(s) URL');
  // Only its shape, as established: a CA that does not parse fails the TLS handshake of a login (502).
  if (c.kubernetes_ca_cert && !c.kubernetes_ca_cert.includes('-----BEGIN CERTIFICATE-----'))
    throw new InvalidRequestError('kubernetes_ca_cert is not a PEM certificate');
  if (c.disable_local_ca_jwt && !c.kubernetes_ca_cert && c.pem_keys.length === 0)
    throw new InvalidRequestError('kubernetes_ca_cert must be given when disable_local_ca_jwt is true');
  for (const pem of c.pem_keys)
    if (!(await isUsablePem(pem))) throw new InvalidRequestError('data does not contain any valid public keys');
}
