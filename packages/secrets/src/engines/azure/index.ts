export { azureBackendFactory, createAzureBackend } from './backend.js';
export {
  AZURE_CLOUDS,
  type AzureAccess,
  type AzureCloud,
  canonicalEnvironment,
  cloudOf,
  DEFAULT_AZURE_ACCESS,
} from './clouds.js';
export { azureCredential, pipelineOptions, type ServicePrincipalLogin } from './credential.js';
