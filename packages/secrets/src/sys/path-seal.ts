import type { SystemCore } from '../core/system-core.js';
import { definePath, type PathDefinition } from '../framework/index.js';
import { rfc3339Nano } from '../logical/time.js';

/** `sys/seal`, `sys/key-status`, `sys/rotate`: seal the server and manage the barrier keyring. */
export function pathSealAndKeys(sys: SystemCore): PathDefinition[] {
  return [
    definePath({
      pattern: 'seal',
      fields: {},
      operations: {
        update: {
          summary: 'Seal the server; it answers 503 until unsealed again.',
          handler: async () => {
            await sys.seal();
            return undefined;
          },
        },
      },
      help: { synopsis: 'Seal the server.', description: 'Needs a root token or `sudo` on `sys/seal`.' },
    }),
    definePath({
      pattern: 'key-status',
      fields: {},
      operations: {
        read: {
          summary: 'The active encryption key term.',
          handler: async () => {
            const s = sys.keyStatus();
            return {
              data: { term: s.term, install_time: rfc3339Nano(s.installTimeMs), encryptions: s.encryptions },
              dataAtTopLevel: true,
            };
          },
        },
      },
      help: {
        synopsis: 'Read the keyring status.',
        description: 'Term, install time and use count of the active key.',
      },
    }),
    definePath({
      pattern: 'rotate',
      fields: {},
      operations: {
        update: {
          summary: 'Install a new encryption key; old data stays readable.',
          handler: async () => {
            await sys.rotateKeyring();
            return undefined;
          },
        },
      },
      help: { synopsis: 'Rotate the barrier key.', description: 'New writes use the new term.' },
    }),
  ];
}
