import type { MountEntry } from './mount-table.js';

/** How `sys/` appears in mount listings; it is built in and never stored in the table. */
export const SYSTEM_MOUNT_ENTRY: MountEntry = {
  path: 'sys/',
  type: 'system',
  description: 'system endpoints used for control, policy and debugging',
  accessor: 'system_00000000',
  uuid: '00000000-0000-4000-8000-000000000000',
  local: false,
  seal_wrap: true,
  external_entropy_access: false,
  options: null,
  config: { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false },
};

/** How the token store appears in `sys/auth`. */
export const TOKEN_AUTH_ENTRY: MountEntry = {
  ...SYSTEM_MOUNT_ENTRY,
  path: 'token/',
  type: 'token',
  description: 'token based credentials',
  accessor: 'auth_token_00000000',
  uuid: '00000000-0000-4000-8000-000000000001',
  seal_wrap: false,
};

/** How the identity store appears in mount listings (built in, one per namespace). */
export const IDENTITY_MOUNT_ENTRY: MountEntry = {
  ...SYSTEM_MOUNT_ENTRY,
  path: 'identity/',
  type: 'identity',
  description: 'identity store',
  accessor: 'identity_00000000',
  uuid: '00000000-0000-4000-8000-000000000002',
  seal_wrap: false,
};

/** How the per-token cubbyhole appears in `sys/mounts` (built in, one per namespace, never replicated). */
export const CUBBYHOLE_MOUNT_ENTRY: MountEntry = {
  ...SYSTEM_MOUNT_ENTRY,
  path: 'cubbyhole/',
  type: 'cubbyhole',
  description: 'per-token private secret storage',
  accessor: 'cubbyhole_00000000',
  uuid: '00000000-0000-4000-8000-000000000003',
  local: true,
  seal_wrap: false,
};
