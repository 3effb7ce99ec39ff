import type { Dispatcher } from 'undici';
import { InvalidRequestError } from '../../logical/errors.js';

/** Where one Azure cloud's services are: sign-in (Entra ID), Resource Manager, Microsoft Graph. */
export interface AzureCloud {
  /** Entra ID's sign-in host, ending in `/` (`https://login.microsoftonline.com/`). */
  activeDirectoryEndpoint: string;
  /** Resource Manager, ending in `/`. */
  resourceManagerEndpoint: string;
  /** Microsoft Graph, without a version and without a trailing `/`. */
  graphEndpoint: string;
}

/**
 * How a mount reaches Azure: the clouds by their established names, and (for a private cloud or a
 * test's fake) a CA to trust and a dispatcher for the plain HTTP calls. Built at the composition
 * root and handed to the factories: no module keeps a client.
 */
export interface AzureAccess {
  clouds: ReadonlyMap<string, AzureCloud>;
  /** PEM the Azure SDKs' pipelines trust besides the system's roots. */
  caPem?: string;
  /** For undici calls (OIDC discovery, signing keys). */
  dispatcher?: Dispatcher;
  /** How long one Azure request may take before it fails (502); default `DEFAULT_AZURE_TIMEOUT_MS`. */
  timeoutMs?: number;
}

/** An Azure call that has not answered in this time fails (502) instead of holding the request. */
export const DEFAULT_AZURE_TIMEOUT_MS = 30_000;

/** The established cloud names (`environment`), as the Azure SDK for Go names them. */
export const AZURE_CLOUDS: ReadonlyMap<string, AzureCloud> = new Map([
  [
    'AzurePublicCloud',
    {
      activeDirectoryEndpoint: 'https://login.microsoftonline.com/',
      resourceManagerEndpoint: 'https://management.azure.com/',
      graphEndpoint: 'https://graph.microsoft.com',
    },
  ],
  [
    'AzureUSGovernmentCloud',
    {
      activeDirectoryEndpoint: 'https://login.microsoftonline.us/',
      resourceManagerEndpoint: 'https://management.usgovcloudapi.net/',
      graphEndpoint: 'https://graph.microsoft.us',
    },
  ],
  [
    'AzureChinaCloud',
    {
      activeDirectoryEndpoint: 'https://login.chinacloudapi.cn/',
      resourceManagerEndpoint: 'https://management.chinacloudapi.cn/',
      graphEndpoint: 'https://microsoftgraph.chinacloudapi.cn',
    },
  ],
  [
    'AzureGermanCloud',
    {
      activeDirectoryEndpoint: 'https://login.microsoftonline.de/',
      resourceManagerEndpoint: 'https://management.microsoftazure.de/',
      graphEndpoint: 'https://graph.microsoft.de',
    },
  ],
]);

export const DEFAULT_AZURE_ACCESS: AzureAccess = { clouds: AZURE_CLOUDS };

/** The canonical name of `environment` (matched ignoring case, as established); '' stays '' (the public cloud). */
export function canonicalEnvironment(access: AzureAccess, environment: string): string {
  if (environment === '') return '';
  for (const name of access.clouds.keys()) if (name.toLowerCase() === environment.toLowerCase()) return name;
  throw new InvalidRequestError(`invalid environment argument provided: "${environment}"`);
}

/** The cloud `environment` names ('' is the public cloud). */
export function cloudOf(access: AzureAccess, environment: string): AzureCloud {
  const cloud = access.clouds.get(canonicalEnvironment(access, environment) || 'AzurePublicCloud');
  if (!cloud) throw new InvalidRequestError('the public cloud is not configured');
  return cloud;
}
