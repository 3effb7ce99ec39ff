import type { PathDefinition } from '../../framework/index.js';
import { pathOidcAssignments, pathOidcScopes } from './path-oidc-assignments.js';
import { pathOidcAuthorize } from './path-oidc-authorize.js';
import { pathOidcClients } from './path-oidc-clients.js';
import { pathOidcConfig } from './path-oidc-config.js';
import { pathOidcKeys } from './path-oidc-keys.js';
import { pathOidcProviderDiscovery } from './path-oidc-provider-discovery.js';
import { pathOidcProviderToken } from './path-oidc-provider-token.js';
import { pathOidcProviders } from './path-oidc-providers.js';
import { pathOidcRoles } from './path-oidc-roles.js';
import { pathOidcToken } from './path-oidc-token.js';
import { pathOidcWellKnown } from './path-oidc-well-known.js';
import type { ProviderDeps } from './provider-deps.js';

export { keyRotationTask } from './key-rotation.js';
export { onceDefaults, type ProviderDeps } from './provider-deps.js';
export { providerStore } from './provider-store.js';

/**
 * Unauthenticated paths of the identity token issuer and of the OpenID providers (discovery,
 * keys, the token endpoint that authenticates clients itself, userinfo that takes the access token).
 */
export const OIDC_UNAUTHENTICATED = [
  'oidc/.well-known/*',
  'oidc/provider/+/.well-known/*',
  'oidc/provider/+/token',
  'oidc/provider/+/userinfo',
];

/** The identity token issuer (`identity/oidc/*`: keys, roles, tokens) and the OpenID providers. */
export function pathsOidc(provider: ProviderDeps): PathDefinition[] {
  return [
    pathOidcConfig(),
    ...pathOidcKeys(provider),
    ...pathOidcRoles(provider),
    ...pathOidcToken(provider),
    ...pathOidcWellKnown(provider),
    ...pathOidcProviders(provider),
    ...pathOidcProviderDiscovery(provider),
    pathOidcAuthorize(provider),
    pathOidcProviderToken(provider),
    ...pathOidcClients(provider),
    ...pathOidcAssignments(provider),
    ...pathOidcScopes(),
  ];
}
