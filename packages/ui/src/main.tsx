import { render } from 'preact';
import { Api } from './api/api.js';
import { browserClock } from './api/clock.js';
import { StatusWatcher } from './api/server-status.js';
import { Session } from './api/session.js';
import { App } from './app.js';
import { AppContext, type AppServices } from './app-context.js';
import { Router } from './router/router.js';
import './styles.css';

// The composition root: every service is made here, once, and handed down through the context.
let api: Api | undefined;
const session = new Session(window.sessionStorage, browserClock, async (token) => {
  const res = await api?.request('PUT', 'auth/token/renew-self', { token, body: {} });
  return res?.auth;
});
api = new Api(session);
const services: AppServices = { api, session, router: new Router(window), status: new StatusWatcher(api) };

const root = document.getElementById('app');
if (root) {
  render(
    <AppContext.Provider value={services}>
      <App />
    </AppContext.Provider>,
    root,
  );
}
