import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where `npm run build` puts the web UI: the `dist` folder of the `@ward/ui` workspace package. */
export function uiDistDirectory(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@ward/ui/package.json')), 'dist');
}
