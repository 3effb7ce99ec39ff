export { type Client, createClient } from './client.js';
export { ApiError, ClientError, type ClientErrorCode, ConnectionError } from './errors.js';
export type { KvApi, KvV1Api, KvV2Api } from './kv.js';
export type { MountsApi, NamespacesApi, PoliciesApi, SecretsMountsApi, SysApi } from './sys.js';
export type { TokenApi } from './token.js';
export type { ClientOptions, FetchFunction } from './transport.js';
export type * from './types.js';
