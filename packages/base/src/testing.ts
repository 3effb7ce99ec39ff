export { type ImportGraph, importCycles, importGraph } from './import-graph.js';
export { createDatabase, PostgresServer } from './postgres-server.js';
export { type Issued, type IssueOptions, makeTestPki, type TestPki } from './test-pki.js';
