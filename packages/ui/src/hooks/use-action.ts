import { useState } from 'preact/hooks';

export interface Action<A extends unknown[]> {
  run(...args: A): Promise<void>;
  isPending: boolean;
  /** The last run's error (an `ApiError` carries the server's text), shown in place by `<ErrorMessage>`. */
  error: unknown;
  clearError(): void;
}

/** A button's or form's work: one run at a time, its error kept for the screen to show. */
export function useAction<A extends unknown[]>(work: (...args: A) => Promise<void>): Action<A> {
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  return {
    isPending,
    error,
    clearError: () => setError(undefined),
    async run(...args: A) {
      if (isPending) return;
      setPending(true);
      setError(undefined);
      try {
        await work(...args);
      } catch (err) {
        setError(err);
      } finally {
        setPending(false);
      }
    },
  };
}
