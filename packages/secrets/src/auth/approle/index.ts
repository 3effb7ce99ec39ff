/** The `approle` auth method: roles, secret IDs, and logins with a role ID and secret ID. @module */
export { type AppRoleBackend, createAppRoleBackend } from './backend.js';
