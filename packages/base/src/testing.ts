export { type ImportGraph, importCycles, importGraph } from './import-graph.js';
export { createDatabase, PostgresServer } from './postgres-server.js';
