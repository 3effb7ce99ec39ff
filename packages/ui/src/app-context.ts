import { createContext } from 'preact';
import { useContext, useEffect, useReducer } from 'preact/hooks';
import type { Api } from './api/api.js';
import type { StatusWatcher } from './api/server-status.js';
import type { Session } from './api/session.js';
import type { Router } from './router/router.js';

/** What every screen reaches: built once in main.tsx (no module state) and provided at the root. */
export interface AppServices {
  api: Api;
  session: Session;
  router: Router;
  status: StatusWatcher;
}

export const AppContext = createContext<AppServices | undefined>(undefined);

export function useApp(): AppServices {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp outside <AppContext.Provider>');
  return app;
}

/** Re-renders the component whenever `source` tells its subscribers something changed. */
export function useSubscription(source: { subscribe(listener: () => void): () => void }): void {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => source.subscribe(() => bump(undefined)), [source]);
}
