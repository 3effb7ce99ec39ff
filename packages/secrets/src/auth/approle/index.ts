/** The `approle` auth method: roles, secret IDs, and logins with a role ID and secret ID. @module */
export { createAppRoleBackend } from './backend.js';
