import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { AuthorizationApi } from './authorization.js';
import { type AzureEngineConfig, azureStore } from './azure-store.js';
import { type AzureAccess, cloudOf } from './clouds.js';
import { azureCredential } from './credential.js';
import { GraphApi } from './graph.js';

/** The Azure clients of one request, signed in as the configured service principal. */
export interface AzureClients {
  config: AzureEngineConfig;
  graph: GraphApi;
  authorization: AuthorizationApi;
}

export async function clientsFor(access: AzureAccess, storage: Storage): Promise<AzureClients> {
  const config = await azureStore.config(storage);
  if (!config?.tenant_id) throw new InvalidRequestError('the engine is not configured (tenant_id is missing)');
  const cloud = cloudOf(access, config.environment);
  const credential = azureCredential(access, cloud, config);
  return {
    config,
    graph: new GraphApi(access, cloud, credential),
    authorization: new AuthorizationApi(access, cloud, credential, config.subscription_id),
  };
}
