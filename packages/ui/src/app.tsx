import type { InitResponse } from '@ward/secrets-client';
import { useEffect, useState } from 'preact/hooks';
import { useApp, useSubscription } from './app-context.js';
import { ErrorMessage } from './components/error-message.js';
import { Loading } from './components/page.js';
import { routeTable } from './router/match.js';
import { ROUTES } from './routes.js';
import { SignIn } from './screens/auth/sign-in.js';
import { InitKeys } from './screens/lifecycle/init-keys.js';
import { Initialize } from './screens/lifecycle/initialize.js';
import { Unseal } from './screens/lifecycle/unseal.js';
import { MainNav } from './shell/main-nav.js';
import { StatusHeader } from './shell/status-header.js';

/** How often the header re-reads the seal and HA state. */
const STATUS_POLL_MS = 10_000;

/** The lifecycle decides the screen: Initialize, then Unseal, then Sign in, then the routed screens. */
export function App() {
  const app = useApp();
  useSubscription(app.status);
  useSubscription(app.session);
  useSubscription(app.router);
  useEffect(() => {
    app.status.refresh();
    const id = window.setInterval(() => app.status.refresh(), STATUS_POLL_MS);
    return () => window.clearInterval(id);
  }, [app.status]);
  // The keys of a fresh initialisation stay on screen (whatever the status poll says) until the operator goes on.
  const [initResult, setInitResult] = useState<InitResponse | undefined>();
  const { path } = app.router.location;
  // After each navigation the new screen's heading takes the focus, so a screen reader announces it.
  useEffect(() => {
    document.getElementById('page-title')?.focus();
  }, [path]);

  const matched = findRoute(path);
  if (matched?.route.isPublic) return <matched.route.screen params={matched.params} />;
  const s = app.status.status;
  const signedIn = app.session.data !== undefined;
  let body = null;
  if (!s) body = app.status.error ? <ErrorMessage error={app.status.error} label="Server status" /> : <Loading />;
  else if (initResult) {
    body = (
      <InitKeys
        result={initResult}
        onContinue={() => {
          setInitResult(undefined);
          app.status.refresh();
        }}
      />
    );
  } else if (!s.initialized) body = <Initialize onInitialized={setInitResult} />;
  else if (s.sealed) body = <Unseal />;
  else if (!signedIn) body = <SignIn />;
  else if (matched) body = <matched.route.screen key={path} params={matched.params} />;
  return (
    <div class="app">
      <StatusHeader />
      {s && !s.sealed && signedIn && <MainNav />}
      <main id="main">{body}</main>
    </div>
  );
}

const routeOf = routeTable(ROUTES);

function findRoute(path: string) {
  return routeOf(path === '/' ? '/secrets' : path);
}
