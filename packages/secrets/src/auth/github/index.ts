export { createGitHubBackend, type GitHubBackend } from './backend.js';
