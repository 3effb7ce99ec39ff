export { createJwtBackend } from './backend.js';
