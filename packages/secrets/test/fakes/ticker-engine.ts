import { type Backend, type BackendContext, createBackend, definePath } from '../../src/framework/index.js';
import { getJson, putJson } from '../../src/logical/storage.js';

/** How often the ticker's periodic task runs. */
export const TICK_INTERVAL_MS = 10_000;

/**
 * A test-only engine with one periodic task that counts its runs in the mount's storage;
 * `GET <mount>/count` reads the count. Shows when the core runs (and stops) periodic work.
 */
export function createTickerBackend(ctx: BackendContext): Backend {
  const tick = async () => {
    const count = (await getJson<number>(ctx.storage, 'count')) ?? 0;
    await putJson(ctx.storage, 'count', count + 1);
  };
  return createBackend({
    type: 'ticker',
    storage: ctx.storage,
    help: 'Counts the runs of its periodic task.',
    periodic: [{ name: 'tick', intervalMs: TICK_INTERVAL_MS, run: tick }],
    paths: [
      definePath({
        pattern: 'count',
        fields: {},
        operations: {
          read: {
            summary: 'Runs of the periodic task so far.',
            handler: async ({ storage }) => ({ data: { count: (await getJson<number>(storage, 'count')) ?? 0 } }),
          },
        },
        help: { synopsis: 'Run count.', description: 'How often the periodic task ran on this mount.' },
      }),
    ],
  });
}
