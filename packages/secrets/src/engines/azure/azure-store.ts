import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** The engine's service principal and subscription (`config`). Field names keep the API's spelling. */
export interface AzureEngineConfig {
  subscription_id: string;
  tenant_id: string;
  client_id: string;
  /** Never shown. */
  client_secret: string;
  /** Cloud name ('' = the public cloud). */
  environment: string;
  /** Lifetime of the secret `rotate-root` creates, in seconds. */
  root_password_ttl: number;
  /** When the secret `rotate-root` created expires (RFC 3339), '' before any rotation. */
  root_password_expiration_date: string;
}

export interface AzureRoleAssignment {
  role_name: string;
  role_id: string;
  scope: string;
}

export interface AzureGroupMembership {
  group_name: string;
  object_id: string;
}

/** An application and service principal the engine created, with what it gave them. */
export interface CreatedApp {
  object_id: string;
  app_id: string;
  sp_object_id: string;
  /** Resource ids of the role assignments made for it. */
  assignment_ids: string[];
  /** Object ids of the groups it was added to. */
  group_ids: string[];
}

/** A role: what each credential gets, and for how long. */
export interface AzureEngineRole {
  azure_roles: AzureRoleAssignment[];
  azure_groups: AzureGroupMembership[];
  /** An existing application: credentials are passwords added to it. */
  application_object_id: string;
  /** Keep one application for the role (passwords per credential) instead of one per credential. */
  persist_app: boolean;
  /** The application kept for `persist_app`, created with the role. */
  managed_app?: CreatedApp;
  ttl: number;
  max_ttl: number;
}

/** The established default `root_password_ttl`: 182 days. */
export const DEFAULT_ROOT_PASSWORD_TTL = 182 * 24 * 3600;

export const azureStore = {
  config: (s: Storage) => getJson<AzureEngineConfig>(s, 'config'),
  putConfig: (s: Storage, c: AzureEngineConfig) => putJson(s, 'config', c),
  deleteConfig: (s: Storage) => s.delete('config'),
  role: (s: Storage, name: string) => getJson<AzureEngineRole>(s, `roles/${name}`),
  putRole: (s: Storage, name: string, r: AzureEngineRole) => putJson(s, `roles/${name}`, r),
  deleteRole: (s: Storage, name: string) => s.delete(`roles/${name}`),
  roles: (s: Storage) => s.list('roles/'),
};
