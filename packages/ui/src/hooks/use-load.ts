/** Loading on mount and acting on a press, with the error kept for the screen to show. @module */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  isLoading: boolean;
  /** Loads again (after a change the screen made). */
  reload(): void;
}

/**
 * Runs `load` when the component mounts and whenever `deps` change; an answer that arrives after a
 * newer load started is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; isLoading: boolean }>({
    data: undefined,
    error: undefined,
    isLoading: true,
  });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const run = ++latest.current;
    setState((s) => ({ ...s, isLoading: true }));
    load().then(
      (data) => run === latest.current && setState({ data, error: undefined, isLoading: false }),
      (error: unknown) => run === latest.current && setState({ data: undefined, error, isLoading: false }),
    );
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}
