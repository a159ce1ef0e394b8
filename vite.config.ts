/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Transcripts hold secrets: the built page may talk to nothing but its own origin. The policy is
 * a <meta> tag in the built index.html (so it holds on any static host); the worker inherits it
 * (it starts from a blob: URL, engine/client.ts). `vite preview` (`npm start`, the e2e suite)
 * serves the built page with the same policy as a header. The dev server needs inline scripts
 * and a websocket for hot reload, so it gets a looser header instead.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function cspMeta(): Plugin {
  return {
    name: 'transcript-inspector-csp',
    apply: 'build',
    transformIndexHtml: (html) =>
      html.replace(
        '<head>',
        `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`,
      ),
  };
}

export default defineConfig({
  plugins: [react(), cspMeta()],
  base: './',
  worker: { format: 'es' },
  server: {
    headers: {
      'Content-Security-Policy': CSP.replace(
        "script-src 'self'",
        "script-src 'self' 'unsafe-inline'",
      ).replace("connect-src 'self'", "connect-src 'self' ws: wss:"),
    },
  },
  // Without its own `headers`, preview would serve the dev server's loose policy above.
  preview: { headers: { 'Content-Security-Policy': CSP } },
  build: { target: 'es2022', sourcemap: true },
  // The unit suite: the project's own fixtures only. The `*.corpus.test.ts` files read the
  // shared corpus (../shared) and run in their own suite, vitest.corpus.config.ts.
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.corpus.test.ts'],
    environment: 'node',
    // No test measures time (speed is `npm run bench`'s job); vitest's 5 s default failed six
    // property and CLI tests on a 2-core machine at load 14, where the suite takes 6× longer.
    testTimeout: 30_000,
  },
});
