/** Named items of an auth method below `auth/<mount>/<path>/<name>`: roles, trusted certificates, mappings. */
export interface ItemCollection {
  /** `role`, `certs`, `groups`, `map/teams`. */
  path: string;
  /** What one item is called (`role`, `certificate`, `team mapping`). */
  noun: string;
  /** The section's heading and the list's name (`Roles`). */
  title: string;
  /** Fields shown first on an item's form, in this order. */
  first?: readonly string[];
  /** The label of a new item's name (`Account ID`); `<Noun> name` unless told. */
  nameLabel?: string;
  /** What an item's read holds beyond its form's fields (a CRL's revoked serials), as label and text. */
  facts?(current: Record<string, unknown>): ReadonlyArray<readonly [label: string, text: string]>;
}

/** What the UI configures of an auth method type: its settings path and its named items. */
export interface MethodKind {
  /** Below `auth/<mount>/`: the method's settings (`config`, AWS's `config/client`). */
  configPath?: string;
  /** Fields shown first, in this order, on the config form. */
  configFirst?: readonly string[];
  collections: readonly ItemCollection[];
}

const ROLES: ItemCollection = { path: 'role', noun: 'role', title: 'Roles' };

/** Policies (and for users, local groups) given to directory groups and users, as LDAP and Okta have. */
const MAPPINGS: readonly ItemCollection[] = [
  { path: 'groups', noun: 'group', title: 'Groups', first: ['policies'] },
  { path: 'users', noun: 'user', title: 'Users', first: ['groups', 'policies'] },
];

const JWT: MethodKind = {
  configPath: 'config',
  configFirst: [
    'oidc_discovery_url',
    'oidc_client_id',
    'oidc_client_secret',
    'oidc_response_mode',
    'default_role',
    'bound_issuer',
    'jwks_url',
    'jwt_validation_pubkeys',
  ],
  collections: [
    {
      ...ROLES,
      first: ['role_type', 'user_claim', 'allowed_redirect_uris', 'bound_audiences', 'groups_claim', 'oidc_scopes'],
    },
  ],
};

/**
 * Userpass and AppRole have screens of their own (auth-users.tsx); the rest are configured by forms
 * made from the server's OpenAPI for these paths.
 */
export const METHOD_KINDS: ReadonlyMap<string, MethodKind> = new Map([
  [
    'ldap',
    {
      configPath: 'config',
      configFirst: [
        'url',
        'binddn',
        'bindpass',
        'userdn',
        'userattr',
        'userfilter',
        'upndomain',
        'discoverdn',
        'groupdn',
        'groupfilter',
        'groupattr',
        'starttls',
        'insecure_tls',
        'certificate',
      ],
      collections: MAPPINGS,
    },
  ],
  ['jwt', JWT],
  ['oidc', JWT],
  [
    'kubernetes',
    {
      configPath: 'config',
      configFirst: ['kubernetes_host', 'kubernetes_ca_cert', 'token_reviewer_jwt', 'issuer'],
      collections: [
        {
          ...ROLES,
          first: ['bound_service_account_names', 'bound_service_account_namespaces', 'audience', 'alias_name_source'],
        },
      ],
    },
  ],
  [
    'cert',
    {
      configPath: 'config',
      collections: [
        {
          path: 'certs',
          noun: 'certificate',
          title: 'Certificates',
          first: ['certificate', 'display_name', 'allowed_common_names', 'allowed_dns_sans'],
        },
        {
          path: 'crls',
          noun: 'CRL',
          title: 'CRLs',
          first: ['crl'],
          facts: (c) => [['Revoked serials', Object.keys(c.serials ?? {}).join(', ') || 'none']],
        },
      ],
    },
  ],
  [
    'github',
    {
      configPath: 'config',
      configFirst: ['organization', 'organization_id', 'base_url'],
      collections: [
        { path: 'map/teams', noun: 'team mapping', title: 'Team mappings', first: ['value'] },
        { path: 'map/users', noun: 'user mapping', title: 'User mappings', first: ['value'] },
      ],
    },
  ],
  [
    'okta',
    {
      configPath: 'config',
      configFirst: ['org_name', 'api_token', 'base_url', 'bypass_okta_mfa'],
      collections: MAPPINGS,
    },
  ],
  [
    'aws',
    {
      configPath: 'config/client',
      configFirst: ['access_key', 'secret_key', 'sts_endpoint', 'sts_region', 'iam_endpoint', 'endpoint'],
      collections: [
        ROLES,
        {
          path: 'config/sts',
          noun: 'STS role',
          title: 'STS roles',
          nameLabel: 'Account ID',
          first: ['sts_role', 'external_id'],
        },
      ],
    },
  ],
  ['azure', { configPath: 'config', collections: [ROLES] }],
  ['gcp', { configPath: 'config', collections: [ROLES] }],
]);

/** The collection of `kind` at `path` (`role`, `map/teams`); undefined when the type has none there. */
export function collectionOf(kind: MethodKind | undefined, path: string): ItemCollection | undefined {
  return kind?.collections.find((c) => c.path === path);
}
