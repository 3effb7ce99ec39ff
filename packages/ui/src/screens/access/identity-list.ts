import type { Api } from '../../api/api.js';
import { ApiError } from '../../api/api.js';

export interface IdentityItem {
  id: string;
  name: string;
}

/** `identity/<kind>/id` listed with its `key_info`: id and name of each; nothing there is `[]`. */
export async function identityList(api: Api, kind: 'entity' | 'group'): Promise<IdentityItem[]> {
  try {
    const res = await api.request<{ keys?: string[]; key_info?: Record<string, { name?: string }> }>(
      'LIST',
      `identity/${kind}/id`,
    );
    const info = res?.data?.key_info ?? {};
    return (res?.data?.keys ?? [])
      .map((id) => ({ id, name: info[id]?.name ?? '' }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}
