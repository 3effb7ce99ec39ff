export { type AzureAuthBackend, azureAuthBackendFactory, createAzureAuthBackend } from './backend.js';
