/** The `userpass` auth method: users with bcrypt-hashed passwords, logins by username, lockout. @module */
export { createUserpassBackend } from './backend.js';
