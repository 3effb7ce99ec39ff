import {
  ClientSecretCredential,
  ManagedIdentityCredential,
  type TokenCredential,
  type TokenCredentialOptions,
} from '@azure/identity';
import { type AzureAccess, type AzureCloud, DEFAULT_AZURE_TIMEOUT_MS } from './clouds.js';

export interface ServicePrincipalLogin {
  tenant_id: string;
  client_id: string;
  client_secret: string;
}

type AdditionalPolicy = NonNullable<TokenCredentialOptions['additionalPolicies']>[number];

const timeoutPolicy = (timeoutMs: number): AdditionalPolicy => ({
  policy: {
    name: 'wardRequestTimeout',
    sendRequest(request, next) {
      if (!request.timeout) request.timeout = timeoutMs;
      return next(request);
    },
  },
  position: 'perCall',
});

/**
 * The pipeline options every Azure SDK client of a mount gets: a timeout on each request (the
 * SDKs have none by default), and the access's CA when it has one.
 */
export function pipelineOptions(access: AzureAccess) {
  return {
    additionalPolicies: [timeoutPolicy(access.timeoutMs ?? DEFAULT_AZURE_TIMEOUT_MS)],
    ...(access.caPem ? { tlsOptions: { ca: access.caPem } } : {}),
  };
}

/**
 * The credential Ward signs in to Azure with: the configured service principal, else (no
 * secret configured, as on an Azure VM) the managed identity of the machine.
 */
export function azureCredential(access: AzureAccess, cloud: AzureCloud, login: ServicePrincipalLogin): TokenCredential {
  if (login.client_secret === '')
    return new ManagedIdentityCredential({
      ...(login.client_id ? { clientId: login.client_id } : {}),
      ...pipelineOptions(access),
    });
  return new ClientSecretCredential(login.tenant_id, login.client_id, login.client_secret, {
    authorityHost: cloud.activeDirectoryEndpoint,
    // The authority is the configured cloud's: asking the public cloud's discovery service about it is pointless.
    disableInstanceDiscovery: true,
    ...pipelineOptions(access),
  });
}
