export { createUserpassBackend, type UserpassBackend } from './backend.js';
