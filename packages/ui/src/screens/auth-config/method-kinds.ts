/** What the UI configures of an auth method type: its `config` path and its roles, if it has them. */
export interface MethodKind {
  /** Below `auth/<mount>/`: the method's settings (`config`, AWS's `config/client`). */
  configPath?: string;
  /** Below `auth/<mount>/`: where roles are listed and each is `<rolesPath>/<name>`. */
  rolesPath?: string;
  /** What a role is called (`role`, `certificate`). */
  roleNoun?: string;
  /** Fields shown first, in this order, on the config form and the role form. */
  configFirst?: readonly string[];
  roleFirst?: readonly string[];
}

const JWT: MethodKind = {
  configPath: 'config',
  rolesPath: 'role',
  roleNoun: 'role',
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
  roleFirst: ['role_type', 'user_claim', 'allowed_redirect_uris', 'bound_audiences', 'groups_claim', 'oidc_scopes'],
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
    },
  ],
  ['jwt', JWT],
  ['oidc', JWT],
  [
    'kubernetes',
    {
      configPath: 'config',
      rolesPath: 'role',
      roleNoun: 'role',
      configFirst: ['kubernetes_host', 'kubernetes_ca_cert', 'token_reviewer_jwt', 'issuer'],
      roleFirst: ['bound_service_account_names', 'bound_service_account_namespaces', 'audience', 'alias_name_source'],
    },
  ],
  [
    'cert',
    {
      configPath: 'config',
      rolesPath: 'certs',
      roleNoun: 'certificate',
      roleFirst: ['certificate', 'display_name', 'allowed_common_names', 'allowed_dns_sans'],
    },
  ],
  ['github', { configPath: 'config', configFirst: ['organization', 'organization_id', 'base_url'] }],
  ['okta', { configPath: 'config', configFirst: ['org_name', 'api_token', 'base_url', 'bypass_okta_mfa'] }],
  ['aws', { configPath: 'config/client', rolesPath: 'role', roleNoun: 'role' }],
  ['azure', { configPath: 'config', rolesPath: 'role', roleNoun: 'role' }],
  ['gcp', { configPath: 'config', rolesPath: 'role', roleNoun: 'role' }],
]);
