export { createDatabase, PostgresServer } from './postgres-server.js';
