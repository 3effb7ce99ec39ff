import type { Dialect } from './sql.js';

/**
 * The schema, one migration per step, applied in order and never edited once released:
 * a database written by an older build is brought forward by the steps it has not seen.
 * Each step is written once and rendered for SQLite or PostgreSQL, so both get the same
 * versions, tables, columns and constraints. Times are integer milliseconds since the epoch
 * (UTC; BIGINT in PostgreSQL); booleans are 0/1.
 */
export interface Migration {
  version: number;
  sql: string;
}

/** The few places the dialects differ. */
interface Words {
  /** Milliseconds since the epoch. */
  time: string;
  /** A name column unique case-insensitively; `index` is the extra statement it needs, if any. */
  uniqueName(table: string, column: string): { column: string; index: string };
  /** An index for case-insensitive look-ups of a column. */
  caseInsensitiveIndex(table: string, column: string): string;
}

const WORDS: Record<Dialect, Words> = {
  sqlite: {
    time: 'INTEGER',
    uniqueName: (_table, column) => ({ column: `${column} TEXT NOT NULL UNIQUE COLLATE NOCASE`, index: '' }),
    caseInsensitiveIndex: () => '',
  },
  postgres: {
    time: 'BIGINT',
    uniqueName: (table, column) => ({
      column: `${column} TEXT NOT NULL`,
      index: `CREATE UNIQUE INDEX ${table}_${column} ON ${table} (lower(${column}));`,
    }),
    caseInsensitiveIndex: (table, column) => `CREATE INDEX ${table}_${column} ON ${table} (lower(${column}));`,
  },
};

const LIMIT_COLUMNS_SQL = `run_task_limit INTEGER,
  run_task_workspace_limit INTEGER,
  run_task_mandatory_enforcement_limit INTEGER,
  policy_set_limit INTEGER,
  policy_limit INTEGER,
  policy_mandatory_enforcement_limit INTEGER,
  versioned_policy_set_limit INTEGER`;

function version1(w: Words): string {
  const username = w.uniqueName('users', 'username');
  const orgName = w.uniqueName('organizations', 'name');
  return `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  ${username.column},
  email TEXT NOT NULL,
  is_site_admin INTEGER NOT NULL DEFAULT 0,
  created_at ${w.time} NOT NULL
);
${username.index}
${w.caseInsensitiveIndex('users', 'email')}
CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  ${orgName.column},
  email TEXT NOT NULL,
  created_at ${w.time} NOT NULL
);
${orgName.index}
CREATE TABLE memberships (
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
  created_at ${w.time} NOT NULL,
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
  created_at ${w.time} NOT NULL,
  last_used_at ${w.time},
  expired_at ${w.time},
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
  ${LIMIT_COLUMNS_SQL}
);
CREATE TABLE subscriptions (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  feature_set_id TEXT NOT NULL REFERENCES feature_sets(id),
  start_at ${w.time} NOT NULL,
  end_at ${w.time},
  is_active INTEGER NOT NULL,
  runs_ceiling INTEGER NOT NULL,
  agents_ceiling INTEGER NOT NULL,
  contract_start_at ${w.time},
  contract_user_limit INTEGER,
  contract_apply_limit INTEGER,
  ${LIMIT_COLUMNS_SQL}
);
-- The database itself refuses a second active subscription for one organization.
CREATE UNIQUE INDEX one_active_subscription ON subscriptions(organization_id) WHERE is_active = 1;
CREATE INDEX subscriptions_by_organization ON subscriptions(organization_id);
CREATE TABLE web_sessions (
  id_sha256 TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at ${w.time} NOT NULL,
  expires_at ${w.time} NOT NULL
);
`;
}

function version2(w: Words): string {
  return `
-- Requests per rate-limit key and one-second window, shared by every process on the database
-- (used on PostgreSQL; a server on an SQLite file counts in its memory).
CREATE TABLE rate_limit_windows (
  key TEXT NOT NULL,
  window_start ${w.time} NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key, window_start)
);
`;
}

/** Every step, rendered for `dialect`. */
export function migrations(dialect: Dialect): Migration[] {
  const w = WORDS[dialect];
  return [
    { version: 1, sql: version1(w) },
    { version: 2, sql: version2(w) },
  ];
}
