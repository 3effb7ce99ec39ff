export { type Client, createClient } from './client.js';
export { ApiError, ClientError, type ClientErrorCode, ConnectionError } from './errors.js';
export type { KvApi, KvV1Api, KvV2Api } from './kv.js';
export {
  decodeRootToken,
  type GenerateRootApi,
  type MountsApi,
  type NamespacesApi,
  type PoliciesApi,
  type RekeyApi,
  type SecretsMountsApi,
  type SysApi,
} from './sys.js';
export type { TokenApi } from './token.js';
export type { ClientOptions, FetchFunction } from './transport.js';
export type * from './types.js';
export { type KeyPresence, shapeDrift, WIRE_SHAPES, type WireShape, wireShape } from './wire-shapes.js';
