import { defineConfig, devices } from '@playwright/test';
import { systemChromium } from './scripts/chromium.ts';

const executablePath = systemChromium();

// A dedicated port with --strictPort: a stale server on the default port must fail loudly,
// not silently serve an old build to the tests.
const PORT = Number(process.env.E2E_PORT ?? 4317);

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 60_000,
  // Web-first assertions wait for what the page shows, not for how fast: speed is `npm run
  // bench`'s job. 5 s (the default) failed on a 2-core machine while the worker loaded the 2 MB
  // BPE vocabulary, which holds a paste made meanwhile for a few seconds (see README, Performance).
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      // The machine's network is closed: Chromium's background services would only fail.
      args: [
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    // The e2e suite runs against the production build: the CSP meta tag only exists there.
    command: `npm run build && npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
  },
});
