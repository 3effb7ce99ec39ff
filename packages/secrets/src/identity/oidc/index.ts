import type { Clock, Random } from '@ward/base';
import type { PathDefinition } from '../../framework/index.js';
import { pathOidcConfig } from './path-oidc-config.js';
import { pathOidcKeys } from './path-oidc-keys.js';
import { pathOidcRoles } from './path-oidc-roles.js';
import { pathOidcToken } from './path-oidc-token.js';
import { pathOidcWellKnown } from './path-oidc-well-known.js';

/** Unauthenticated paths of the identity token provider. */
export const OIDC_UNAUTHENTICATED = ['oidc/.well-known/*'];

/** The identity token provider (`identity/oidc/*`): issuer, signing keys, roles, tokens, discovery. */
export function pathsOidc(d: { clock: Clock; random: Random }): PathDefinition[] {
  return [pathOidcConfig(), ...pathOidcKeys(d), ...pathOidcRoles(d), ...pathOidcToken(d), ...pathOidcWellKnown(d)];
}
