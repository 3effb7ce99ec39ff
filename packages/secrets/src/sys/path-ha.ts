import type { SystemCore } from '../core/system-core.js';
import { definePath, type PathDefinition } from '../framework/index.js';

/**
 * `sys/ha-status` and `sys/step-down`: the HA cluster as the active server sees it, and handing
 * over. Both are the active server's (`forwardToActive`): only it keeps who echoed lately.
 */
export function pathHa(sys: SystemCore): PathDefinition[] {
  return [
    definePath({
      pattern: 'ha-status',
      forwardToActive: true,
      fields: {},
      operations: {
        read: {
          summary: 'The active server and the standbys that echoed to it lately.',
          handler: async () => ({ data: { nodes: sys.ha.nodes() }, dataAtTopLevel: true }),
        },
      },
      help: {
        synopsis: 'Check the HA status of the cluster.',
        description:
          'Lists the active server (last_echo null) and every standby that echoed to it in the last 30 seconds.',
      },
    }),
    definePath({
      pattern: 'step-down',
      forwardToActive: true,
      fields: {},
      operations: {
        update: {
          summary: 'The active server stops serving and releases the HA lock; a standby takes over.',
          handler: async () => {
            await sys.ha.stepDown();
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Make the active server step down.',
        description:
          'Needs a root token or `sudo` on `sys/step-down`. The server waits 10 seconds before campaigning again; without HA nothing happens.',
      },
    }),
  ];
}
