import { Session } from 'node:inspector/promises';

/** Trace categories recorded: Node's own events, async operations, and V8 (GC, compilation). */
const CATEGORIES = ['node', 'node.async_hooks', 'v8'];

/**
 * An execution trace of this process while `wait` runs, in the Chrome trace-event JSON
 * format (`{"traceEvents": [...]}`, viewable in chrome://tracing or Perfetto): Node's
 * counterpart of the Go execution trace the established endpoint returns.
 */
export async function captureTrace(wait: () => Promise<void>): Promise<Buffer> {
  const session = new Session();
  session.connect();
  try {
    const events: unknown[] = [];
    session.on('NodeTracing.dataCollected', (m) => events.push(...m.params.value));
    const complete = new Promise((resolve) => session.once('NodeTracing.tracingComplete', resolve));
    await session.post('NodeTracing.start', { traceConfig: { includedCategories: CATEGORIES } });
    await wait();
    await session.post('NodeTracing.stop');
    await complete;
    return Buffer.from(JSON.stringify({ traceEvents: events }));
  } finally {
    session.disconnect();
  }
}
