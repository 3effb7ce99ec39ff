/**
 * The schema, one migration per step, applied in order and never edited once released:
 * a database written by an older build is brought forward by the steps it has not seen.
 * SQLite and PostgreSQL get the same steps (same versions, tables, columns, indexes and
 * constraints), each in its own dialect. Times are integer milliseconds since the epoch (UTC);
 * booleans are 0/1; names compare case-insensitively (NOCASE in SQLite, `lower()` indexes in
 * PostgreSQL).
 */
export interface Migration {
  version: number;
  sql: string;
}

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  email TEXT NOT NULL,
  is_site_admin INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  email TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE memberships (
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_by_user ON memberships(user_id);
CREATE TABLE authentication_tokens (
  id TEXT PRIMARY KEY,
  token_sha256 TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('user', 'organization')),
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  organization_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,
  description TEXT,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  expired_at INTEGER,
  CHECK ((kind = 'user') = (user_id IS NOT NULL)),
  CHECK ((kind = 'organization') = (organization_id IS NOT NULL))
);
CREATE INDEX tokens_by_user ON authentication_tokens(user_id);
-- One organization token per organization: creating another replaces it.
CREATE UNIQUE INDEX one_token_per_organization ON authentication_tokens(organization_id);
CREATE TABLE feature_sets (
  id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  identifier TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  comparison_description TEXT NOT NULL,
  cost INTEGER NOT NULL,
  plan TEXT,
  user_limit INTEGER,
  is_offered INTEGER NOT NULL,
  is_free_tier INTEGER NOT NULL,
  self_serve_billing INTEGER NOT NULL,
  cost_estimation INTEGER NOT NULL,
  policy_engine INTEGER NOT NULL,
  run_tasks INTEGER NOT NULL,
  teams INTEGER NOT NULL,
  audit_logging INTEGER NOT NULL,
  sso INTEGER NOT NULL,
  private_networking INTEGER NOT NULL,
  default_runs_ceiling INTEGER NOT NULL,
  default_agents_ceiling INTEGER NOT NULL,
  run_task_limit INTEGER,
  run_task_workspace_limit INTEGER,
  run_task_mandatory_enforcement_limit INTEGER,
  policy_set_limit INTEGER,
  policy_limit INTEGER,
  policy_mandatory_enforcement_limit INTEGER,
  versioned_policy_set_limit INTEGER
);
CREATE TABLE subscriptions (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  feature_set_id TEXT NOT NULL REFERENCES feature_sets(id),
  start_at INTEGER NOT NULL,
  end_at INTEGER,
  is_active INTEGER NOT NULL,
  runs_ceiling INTEGER NOT NULL,
  agents_ceiling INTEGER NOT NULL,
  contract_start_at INTEGER,
  contract_user_limit INTEGER,
  contract_apply_limit INTEGER,
  run_task_limit INTEGER,
  run_task_workspace_limit INTEGER,
  run_task_mandatory_enforcement_limit INTEGER,
  policy_set_limit INTEGER,
  policy_limit INTEGER,
  policy_mandatory_enforcement_limit INTEGER,
  versioned_policy_set_limit INTEGER
);
-- The database itself refuses a second active subscription for one organization.
CREATE UNIQUE INDEX one_active_subscription ON subscriptions(organization_id) WHERE is_active = 1;
CREATE INDEX subscriptions_by_organization ON subscriptions(organization_id);
CREATE TABLE web_sessions (
  id_sha256 TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
`,
  },
  {
    version: 2,
    sql: `
-- Requests per rate-limit key and one-second window, shared by every process on the database.
CREATE TABLE rate_limit_windows (
  key TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
`,
  },
];

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL,
  email TEXT NOT NULL,
  is_site_admin INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX users_username ON users (lower(username));
CREATE INDEX users_email ON users (lower(email));
CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX organizations_name ON organizations (lower(name));
CREATE TABLE memberships (
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
  created_at BIGINT NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_by_user ON memberships(user_id);
CREATE TABLE authentication_tokens (
  id TEXT PRIMARY KEY,
  token_sha256 TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('user', 'organization')),
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  organization_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,
  description TEXT,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  expired_at BIGINT,
  CHECK ((kind = 'user') = (user_id IS NOT NULL)),
  CHECK ((kind = 'organization') = (organization_id IS NOT NULL))
);
CREATE INDEX tokens_by_user ON authentication_tokens(user_id);
CREATE UNIQUE INDEX one_token_per_organization ON authentication_tokens(organization_id);
CREATE TABLE feature_sets (
  id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  identifier TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  comparison_description TEXT NOT NULL,
  cost INTEGER NOT NULL,
  plan TEXT,
  user_limit INTEGER,
  is_offered INTEGER NOT NULL,
  is_free_tier INTEGER NOT NULL,
  self_serve_billing INTEGER NOT NULL,
  cost_estimation INTEGER NOT NULL,
  policy_engine INTEGER NOT NULL,
  run_tasks INTEGER NOT NULL,
  teams INTEGER NOT NULL,
  audit_logging INTEGER NOT NULL,
  sso INTEGER NOT NULL,
  private_networking INTEGER NOT NULL,
  default_runs_ceiling INTEGER NOT NULL,
  default_agents_ceiling INTEGER NOT NULL,
  run_task_limit INTEGER,
  run_task_workspace_limit INTEGER,
  run_task_mandatory_enforcement_limit INTEGER,
  policy_set_limit INTEGER,
  policy_limit INTEGER,
  policy_mandatory_enforcement_limit INTEGER,
  versioned_policy_set_limit INTEGER
);
CREATE TABLE subscriptions (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  feature_set_id TEXT NOT NULL REFERENCES feature_sets(id),
  start_at BIGINT NOT NULL,
  end_at BIGINT,
  is_active INTEGER NOT NULL,
  runs_ceiling INTEGER NOT NULL,
  agents_ceiling INTEGER NOT NULL,
  contract_start_at BIGINT,
  contract_user_limit INTEGER,
  contract_apply_limit INTEGER,
  run_task_limit INTEGER,
  run_task_workspace_limit INTEGER,
  run_task_mandatory_enforcement_limit INTEGER,
  policy_set_limit INTEGER,
  policy_limit INTEGER,
  policy_mandatory_enforcement_limit INTEGER,
  versioned_policy_set_limit INTEGER
);
-- The database itself refuses a second active subscription for one organization.
CREATE UNIQUE INDEX one_active_subscription ON subscriptions(organization_id) WHERE is_active = 1;
CREATE INDEX subscriptions_by_organization ON subscriptions(organization_id);
CREATE TABLE web_sessions (
  id_sha256 TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
`,
  },
  {
    version: 2,
    sql: `
CREATE TABLE rate_limit_windows (
  key TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
`,
  },
];
