export { createKubernetesBackend, kubernetesBackendFactory } from './backend.js';
export { DEFAULT_SERVICE_ACCOUNT_DIR, localServiceAccountIn } from './local-account.js';
