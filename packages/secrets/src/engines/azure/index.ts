/** The `azure` engine: service principals (new applications with role assignments and groups, or passwords of existing ones) under a lease; also the Azure clouds and credentials the azure auth method shares. @module */
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
