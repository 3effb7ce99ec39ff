import type { FunctionComponent } from 'preact';
import type { Capability } from './api/capabilities.js';
import { lazyScreen } from './router/lazy-screen.js';
import type { ScreenProps } from './screen.js';

import { AccessIndex } from './screens/access/access-index.js';
import { AppRoleRole } from './screens/access/approle-role.js';
import { AuthEnable } from './screens/access/auth-enable.js';
import { AuthMethod } from './screens/access/auth-method.js';
import { AuthMethods } from './screens/access/auth-methods.js';
import { Entities } from './screens/access/entities.js';
import { Entity } from './screens/access/entity.js';
import { EntityMerge } from './screens/access/entity-merge.js';
import { Group } from './screens/access/group.js';
import { Groups } from './screens/access/groups.js';
import { Leases } from './screens/access/leases.js';
import { ManagedKey } from './screens/access/managed-key.js';
import { ManagedKeys } from './screens/access/managed-keys.js';
import { Namespaces } from './screens/access/namespaces.js';
import { SnapshotAuto } from './screens/access/snapshot-auto.js';
import { SnapshotsAuto } from './screens/access/snapshots-auto.js';
import { OidcAuthorize } from './screens/auth/oidc-authorize.js';
import { OidcCallback } from './screens/auth/oidc-callback.js';
import { AuthConfig } from './screens/auth-config/auth-config.js';
import { AuthItem } from './screens/auth-config/auth-item.js';
import { DbConnection } from './screens/database/db-connection.js';
import { DbConnections } from './screens/database/db-connections.js';
import { DbRole } from './screens/database/db-role.js';
import { DbRoles } from './screens/database/db-roles.js';
import { DbStaticRole } from './screens/database/db-static-role.js';
import { DbStaticRoles } from './screens/database/db-static-roles.js';
import { KvBrowse } from './screens/kv/kv-browse.js';
import { KvEdit } from './screens/kv/kv-edit.js';
import { KvMetadata } from './screens/kv/kv-metadata.js';
import { KvSecret } from './screens/kv/kv-secret.js';
import { LdapDynamicRole } from './screens/ldap/ldap-dynamic-role.js';
import { LdapLibrary } from './screens/ldap/ldap-library.js';
import { LdapLibrarySet } from './screens/ldap/ldap-library-set.js';
import { LdapRoles } from './screens/ldap/ldap-roles.js';
import { LdapStaticRole } from './screens/ldap/ldap-static-role.js';
import { NotFound } from './screens/not-found.js';
import { PkiCert } from './screens/pki/pki-cert.js';
import { PkiCerts } from './screens/pki/pki-certs.js';
import { PkiOverview } from './screens/pki/pki-overview.js';
import { PkiRole } from './screens/pki/pki-role.js';
import { PkiRoles } from './screens/pki/pki-roles.js';
import { PoliciesList } from './screens/policies/policies-list.js';
import { EngineConfigure } from './screens/secrets/engine-configure.js';
import { EngineEnable } from './screens/secrets/engine-enable.js';
import { SecretsList } from './screens/secrets/secrets-list.js';
import { ConsoleTool } from './screens/tools/console.js';
import { HashTool } from './screens/tools/hash.js';
import { LookupTool } from './screens/tools/lookup.js';
import { RandomTool } from './screens/tools/random.js';
import { RewrapTool } from './screens/tools/rewrap.js';
import { ToolsIndex } from './screens/tools/tools-index.js';
import { UnwrapTool } from './screens/tools/unwrap.js';
import { WrapTool } from './screens/tools/wrap.js';
import { TotpKey } from './screens/totp/totp-key.js';
import { TotpKeys } from './screens/totp/totp-keys.js';
import { TransitKey } from './screens/transit/transit-key.js';
import { TransitKeys } from './screens/transit/transit-keys.js';

// CodeMirror (the policy editor) is a chunk of its own, fetched when a policy is first opened.
const PolicyEdit = lazyScreen(() => import('./screens/policies/policy-edit.js').then((m) => m.PolicyEdit));

export interface Route {
  /** Below `/ui`: `:name` one segment, `*name` the rest (see router/match.ts). */
  pattern: string;
  screen: FunctionComponent<ScreenProps>;
  /** Shown without signing in and without the app's frame (the OIDC popup's landing page). */
  isPublic?: boolean;
}

/**
 * Every screen of the app; the most specific pattern wins (router/match.ts). Adding a screen: a file
 * in screens/<section>/, one line here, and (for a new section) one entry in NAV_ITEMS.
 */
export const ROUTES: readonly Route[] = [
  { pattern: '/vault/auth/*mount', screen: OidcCallback, isPublic: true },
  { pattern: '/vault/identity/oidc/provider/:name/authorize', screen: OidcAuthorize },
  { pattern: '/secrets', screen: SecretsList },
  { pattern: '/secrets/enable', screen: EngineEnable },
  { pattern: '/secrets/:mount/configure', screen: EngineConfigure },
  { pattern: '/secrets/:mount/kv/*path', screen: KvBrowse },
  { pattern: '/secrets/:mount/show/*path', screen: KvSecret },
  { pattern: '/secrets/:mount/create', screen: KvEdit },
  { pattern: '/secrets/:mount/edit/*path', screen: KvEdit },
  { pattern: '/secrets/:mount/metadata/*path', screen: KvMetadata },
  { pattern: '/secrets/:mount/totp', screen: TotpKeys },
  { pattern: '/secrets/:mount/totp/:name', screen: TotpKey },
  { pattern: '/secrets/:mount/transit', screen: TransitKeys },
  { pattern: '/secrets/:mount/transit/:name', screen: TransitKey },
  { pattern: '/secrets/:mount/database', screen: DbConnections },
  { pattern: '/secrets/:mount/database/connections/:name', screen: DbConnection },
  { pattern: '/secrets/:mount/database/roles', screen: DbRoles },
  { pattern: '/secrets/:mount/database/roles/:name', screen: DbRole },
  { pattern: '/secrets/:mount/database/static-roles', screen: DbStaticRoles },
  { pattern: '/secrets/:mount/database/static-roles/:name', screen: DbStaticRole },
  { pattern: '/secrets/:mount/ldap', screen: LdapRoles },
  { pattern: '/secrets/:mount/ldap/static/:name', screen: LdapStaticRole },
  { pattern: '/secrets/:mount/ldap/dynamic/:name', screen: LdapDynamicRole },
  { pattern: '/secrets/:mount/ldap/library', screen: LdapLibrary },
  { pattern: '/secrets/:mount/ldap/library/:name', screen: LdapLibrarySet },
  { pattern: '/secrets/:mount/pki', screen: PkiOverview },
  { pattern: '/secrets/:mount/pki/roles', screen: PkiRoles },
  { pattern: '/secrets/:mount/pki/roles/:name', screen: PkiRole },
  { pattern: '/secrets/:mount/pki/certs', screen: PkiCerts },
  { pattern: '/secrets/:mount/pki/certs/:serial', screen: PkiCert },
  { pattern: '/access', screen: AccessIndex },
  { pattern: '/access/leases', screen: Leases },
  { pattern: '/access/auth', screen: AuthMethods },
  { pattern: '/access/auth/enable', screen: AuthEnable },
  { pattern: '/access/auth/*path', screen: AuthMethod },
  { pattern: '/access/auth-config/:mount', screen: AuthConfig },
  { pattern: '/access/approle/:mount/:role', screen: AppRoleRole },
  { pattern: '/access/auth-item/:mount/:collection', screen: AuthItem },
  { pattern: '/access/auth-item/:mount/:collection/:name', screen: AuthItem },
  { pattern: '/access/entities', screen: Entities },
  { pattern: '/access/entities/merge', screen: EntityMerge },
  { pattern: '/access/entities/:id', screen: Entity },
  { pattern: '/access/groups', screen: Groups },
  { pattern: '/access/groups/:id', screen: Group },
  { pattern: '/access/namespaces', screen: Namespaces },
  { pattern: '/access/managed-keys/:type', screen: ManagedKeys },
  { pattern: '/access/managed-keys/:type/:name', screen: ManagedKey },
  { pattern: '/access/snapshots', screen: SnapshotsAuto },
  { pattern: '/access/snapshots/:name', screen: SnapshotAuto },
  { pattern: '/policies', screen: PoliciesList },
  { pattern: '/policies/create', screen: PolicyEdit },
  { pattern: '/policies/:name', screen: PolicyEdit },
  { pattern: '/tools', screen: ToolsIndex },
  { pattern: '/tools/wrap', screen: WrapTool },
  { pattern: '/tools/lookup', screen: LookupTool },
  { pattern: '/tools/unwrap', screen: UnwrapTool },
  { pattern: '/tools/rewrap', screen: RewrapTool },
  { pattern: '/tools/random', screen: RandomTool },
  { pattern: '/tools/hash', screen: HashTool },
  { pattern: '/tools/console', screen: ConsoleTool },
  { pattern: '/*rest', screen: NotFound },
];

export interface NavItem {
  label: string;
  to: string;
  /** Offered when the token has any of these (by `sys/capabilities-self`); none: always. */
  requiresAny?: readonly { path: string; capability: Capability | readonly Capability[] }[];
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Secrets', to: '/secrets' },
  {
    label: 'Access',
    to: '/access',
    requiresAny: [
      { path: 'sys/auth', capability: ['read', 'sudo'] },
      { path: 'sys/leases/lookup', capability: ['update', 'sudo'] },
      { path: 'identity/entity/id', capability: 'list' },
      { path: 'sys/namespaces', capability: 'list' },
    ],
  },
  { label: 'Policies', to: '/policies', requiresAny: [{ path: 'sys/policies/acl', capability: ['list', 'read'] }] },
  { label: 'Tools', to: '/tools' },
];
