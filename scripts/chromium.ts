/**
 * Which Chromium the e2e suite (playwright.config.ts) and the browser benches launch. Browsers
 * cannot be downloaded on every machine, so a system Chromium when there is one:
 * $CHROMIUM_PATH (or $PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH), else `chromium` on PATH, else
 * undefined: Playwright's own browser (a developer elsewhere needs nothing special).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function systemChromium(): string | undefined {
  for (const env of ['CHROMIUM_PATH', 'PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH']) {
    const p = process.env[env];
    if (p && existsSync(p)) return p;
  }
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const p = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (p) return p;
    } catch {
      // not on PATH
    }
  }
  return undefined;
}
