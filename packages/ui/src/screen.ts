import type { Params } from './router/match.js';

/** What every screen is given: its route's captures. Screens import it from here, not from routes.ts (which imports them). */
export interface ScreenProps {
  params: Params;
}
