import type { ServerState } from '../core/system-core.js';
import { definePath, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';

/** Both describe the machine and its configuration: `sudo`, as established. */
export const SERVER_STATE_ROOT_PATHS = ['host-info', 'config/state/sanitized'];

/** `GET sys/host-info` and `GET sys/config/state/sanitized` (root namespace). */
export function pathServerState(state: ServerState | undefined): PathDefinition[] {
  const known = () => {
    if (!state) throw new InvalidRequestError('this server does not describe its host and configuration');
    return state;
  };
  return [
    definePath({
      pattern: 'host-info',
      fields: {},
      operations: {
        read: {
          summary: 'Report the CPUs, memory, disk and operating system of the server’s host.',
          handler: async () => {
            const { data, warnings } = await known().hostInfo();
            return { data, ...(warnings.length > 0 ? { warnings } : {}) };
          },
        },
      },
      help: { synopsis: 'Information about the host.', description: 'A part that cannot be read becomes a warning.' },
    }),
    definePath({
      pattern: 'config/state/sanitized',
      fields: {},
      operations: {
        read: {
          summary: 'Show the server configuration without its secrets.',
          handler: async () => ({ data: known().sanitizedConfig() }),
        },
      },
      help: {
        synopsis: 'The configuration, sanitized.',
        description: 'Storage and seal blocks show their type only: their settings hold credentials.',
      },
    }),
  ];
}
