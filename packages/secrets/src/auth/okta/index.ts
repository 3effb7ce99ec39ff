/** The `okta` auth method: password logins checked by Okta's authentication API (with Okta Verify push or TOTP MFA), policies from users and Okta groups. @module */
export { createOktaBackend, oktaBackendFactory } from './backend.js';
