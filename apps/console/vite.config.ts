import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The web console: static files in dist/console that the gateway serves at `/` under `default-src 'self'`, so
 * nothing is inlined (no inline script or style, no data: fonts) and nothing is fetched from elsewhere at run time.
 * The typed client and the array decoder are bundled from their sources.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  publicDir: false,
  resolve: {
    alias: {
      '@qdc/client': here('../../packages/client/src/index.ts'),
      '#qdc/arrays': here('../../libs/arrays/src/index.ts'),
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../../dist/console'),
    emptyOutDir: true,
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // Current Chromium and Firefox (and Safari 17), which the console supports.
    target: ['chrome120', 'firefox121', 'safari17'],
  },
});
