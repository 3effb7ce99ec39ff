import { defineConfig } from 'vite';

// The server serves dist/ at /ui/ (packages/secrets/src/http/ui-assets.ts): hashed names under assets/
// are cached for a year, index.html is always revalidated.
export default defineConfig({
  base: '/ui/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Nothing inlined as data: URLs or inline scripts: the Content-Security-Policy allows only files of /ui/.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
});
