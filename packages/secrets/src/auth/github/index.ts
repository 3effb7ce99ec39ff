/** The `github` auth method: logins with a GitHub token, checked against an organization and its teams. @module */
export { createGitHubBackend } from './backend.js';
