/** Resolves on the first SIGINT or SIGTERM (the handlers are in place once this returns). */
export function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
