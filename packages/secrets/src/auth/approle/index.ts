export { type AppRoleBackend, createAppRoleBackend } from './backend.js';
