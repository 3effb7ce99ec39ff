import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage } from '../components/error-message.js';
import { Loading } from '../components/page.js';

/**
 * A screen loaded when first shown (its own hashed chunk): for screens that bring a large library,
 * such as the policy editor's CodeMirror, so the first page stays small.
 */
export function lazyScreen<P extends object>(load: () => Promise<FunctionComponent<P>>): FunctionComponent<P> {
  let loaded: FunctionComponent<P> | undefined;
  return function LazyScreen(props: P) {
    const [screen, setScreen] = useState<FunctionComponent<P> | undefined>(() => loaded);
    const [error, setError] = useState<unknown>();
    useEffect(() => {
      if (screen) return;
      load().then(
        (s) => {
          loaded = s;
          setScreen(() => s);
        },
        (err: unknown) => setError(err),
      );
    }, [screen]);
    if (error) return <ErrorMessage error={error} label="This screen could not be loaded" />;
    if (!screen) return <Loading />;
    const Screen = screen;
    return <Screen {...props} />;
  };
}
