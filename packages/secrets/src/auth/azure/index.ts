/** The `azure` auth method: logins with a managed identity's access token (checked against the tenant's keys), bound to service principals, groups and the machine Resource Manager describes. @module */
export { azureAuthBackendFactory, createAzureAuthBackend } from './backend.js';
