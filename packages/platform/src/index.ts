export { run } from './cli/main.js';
export { type RunningServer, serve } from './cli/serve.js';
export { parseServeOptions, type ServeOptions } from './cli/serve-options.js';
export { EDITIONS, type Edition, type PlatformContext } from './context.js';
export { buildServer, createRequestListener } from './http/server.js';
export { createStore, openStore, type Store, type StoreLocation, seedCatalogue } from './store/index.js';
