import type { TokenCredential } from '@azure/identity';
import { type AuthenticationProvider, Client, GraphError } from '@microsoft/microsoft-graph-client';
import { NotFoundError, UpstreamError } from '../../logical/errors.js';
import { type AzureAccess, type AzureCloud, DEFAULT_AZURE_TIMEOUT_MS } from './clouds.js';

/** An application (app registration) as the engine reads it. */
export interface GraphApplication {
  id: string;
  appId: string;
  displayName: string;
  passwordKeyIds: string[];
}

export interface GraphPassword {
  keyId: string;
  secretText: string;
}

/** Graph's 404 as its own error, so callers can treat "already gone" as done. */
export class GraphNotFoundError extends NotFoundError {}

/**
 * The Microsoft Graph calls of the engine, through `@microsoft/microsoft-graph-client`: applications
 * and their passwords, service principals, group memberships. Graph's refusals and failures are
 * `UpstreamError` (502), its 404 a `GraphNotFoundError`.
 */
export class GraphApi {
  readonly #client: Client;
  readonly #graphEndpoint: string;

  constructor(access: AzureAccess, cloud: AzureCloud, credential: TokenCredential) {
    const scope = `${cloud.graphEndpoint}/.default`;
    const authProvider: AuthenticationProvider = {
      getAccessToken: async () => {
        const token = await credential.getToken(scope);
        if (!token) throw new UpstreamError('Entra ID issued no token for Microsoft Graph');
        return token.token;
      },
    };
    this.#graphEndpoint = cloud.graphEndpoint;
    this.#client = Client.initWithMiddleware({
      authProvider,
      baseUrl: cloud.graphEndpoint,
      // The middleware adds the token only for hosts it knows: the cloud's Graph host is one.
      customHosts: new Set([new URL(cloud.graphEndpoint).hostname]),
      // One client per request: its Graph calls together get twice one call's time before they fail (502).
      fetchOptions: {
        signal: AbortSignal.timeout(2 * (access.timeoutMs ?? DEFAULT_AZURE_TIMEOUT_MS)),
        ...(access.dispatcher ? { dispatcher: access.dispatcher } : {}),
      } as RequestInit,
    });
  }

  async createApplication(displayName: string): Promise<GraphApplication> {
    return application(await this.#call(() => this.#client.api('/applications').post({ displayName })));
  }

  getApplication(objectId: string): Promise<GraphApplication> {
    return this.#call(() => this.#client.api(`/applications/${encodeURIComponent(objectId)}`).get()).then(application);
  }

  /** The application whose `appId` (client id) is `appId`. */
  async applicationByAppId(appId: string): Promise<GraphApplication> {
    const found = await this.#call(() =>
      this.#client
        .api('/applications')
        .filter(`appId eq '${appId.replaceAll("'", "''")}'`)
        .get(),
    );
    const first = (found as { value?: unknown[] }).value?.[0];
    if (!first) throw new GraphNotFoundError(`no application has client id ${appId}`);
    return application(first);
  }

  async deleteApplication(objectId: string): Promise<void> {
    await this.#call(() => this.#client.api(`/applications/${encodeURIComponent(objectId)}`).delete());
  }

  async addPassword(objectId: string, displayName: string, endDateTime: Date): Promise<GraphPassword> {
    const body = { passwordCredential: { displayName, endDateTime: endDateTime.toISOString() } };
    const answer = (await this.#call(() =>
      this.#client.api(`/applications/${encodeURIComponent(objectId)}/addPassword`).post(body),
    )) as { keyId?: unknown; secretText?: unknown };
    if (typeof answer.keyId !== 'string' || typeof answer.secretText !== 'string')
      throw new UpstreamError('Microsoft Graph answered addPassword without keyId and secretText');
    return { keyId: answer.keyId, secretText: answer.secretText };
  }

  async removePassword(objectId: string, keyId: string): Promise<void> {
    await this.#call(() =>
      this.#client.api(`/applications/${encodeURIComponent(objectId)}/removePassword`).post({ keyId }),
    );
  }

  /** Creates the service principal of an application: its object id. */
  async createServicePrincipal(appId: string): Promise<string> {
    const sp = (await this.#call(() => this.#client.api('/servicePrincipals').post({ appId }))) as { id?: unknown };
    if (typeof sp.id !== 'string') throw new UpstreamError('Microsoft Graph answered a service principal without id');
    return sp.id;
  }

  /** The object id of the group named `displayName` (exactly one must match). */
  async groupByName(displayName: string): Promise<string> {
    const found = (await this.#call(() =>
      this.#client
        .api('/groups')
        .filter(`displayName eq '${displayName.replaceAll("'", "''")}'`)
        .get(),
    )) as { value?: { id?: string }[] };
    const ids = (found.value ?? []).flatMap((g) => (typeof g.id === 'string' ? [g.id] : []));
    if (ids.length !== 1) throw new GraphNotFoundError(`${ids.length} groups are named "${displayName}"`);
    return ids[0] as string;
  }

  async groupExists(objectId: string): Promise<void> {
    await this.#call(() => this.#client.api(`/groups/${encodeURIComponent(objectId)}`).get());
  }

  async addGroupMember(groupId: string, memberId: string): Promise<void> {
    const ref = { '@odata.id': `${this.#graphEndpoint}/v1.0/directoryObjects/${memberId}` };
    await this.#call(() => this.#client.api(`/groups/${encodeURIComponent(groupId)}/members/$ref`).post(ref));
  }

  async removeGroupMember(groupId: string, memberId: string): Promise<void> {
    await this.#call(() =>
      this.#client.api(`/groups/${encodeURIComponent(groupId)}/members/${encodeURIComponent(memberId)}/$ref`).delete(),
    );
  }

  async #call(run: () => Promise<unknown>): Promise<unknown> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof GraphError && err.statusCode === 404)
        throw new GraphNotFoundError(`Microsoft Graph: ${err.message || 'not found'}`);
      if (err instanceof UpstreamError) throw err;
      const status = err instanceof GraphError ? ` (${err.statusCode} ${err.code ?? ''})` : '';
      throw new UpstreamError(`Microsoft Graph: ${(err as Error).message}${status}`, { cause: err });
    }
  }
}

function application(raw: unknown): GraphApplication {
  const a = raw as {
    id?: unknown;
    appId?: unknown;
    displayName?: unknown;
    passwordCredentials?: { keyId?: unknown }[];
  };
  if (typeof a.id !== 'string' || typeof a.appId !== 'string')
    throw new UpstreamError('Microsoft Graph answered an application without id and appId');
  return {
    id: a.id,
    appId: a.appId,
    displayName: typeof a.displayName === 'string' ? a.displayName : '',
    passwordKeyIds: (a.passwordCredentials ?? []).flatMap((p) => (typeof p.keyId === 'string' ? [p.keyId] : [])),
  };
}
