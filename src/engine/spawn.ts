/// <reference types="vite/client" />

/**
 * Start a module worker from a `blob:` URL whose one line imports the built worker script. A
 * worker loaded from its own URL is governed by that response's headers, and a plain static host
 * sends no Content-Security-Policy; a worker from a local-scheme (`blob:`) URL inherits the policy
 * of the document that creates it (CSP 3, "Initialize a Worker's policy container"), the `<meta>`
 * policy included. So the code that reads untrusted text runs under the page's policy on any
 * host (issue 14). The import is same-origin, which `script-src 'self'` allows.
 * @param scriptUrl the worker's built URL (`import url from './x.worker.ts?worker&url'`)
 * @param name the worker's name (shown in devtools)
 * @returns the worker, or null when workers cannot be created here
 */
export function spawnWorker(scriptUrl: string, name: string): Worker | null {
  try {
    const base = typeof location === 'undefined' ? import.meta.url : location.href;
    const script = new URL(scriptUrl, base).href;
    const blob = new Blob([`import ${JSON.stringify(script)};\n`], { type: 'text/javascript' });
    const url = URL.createObjectURL(blob);
    const w = new Worker(url, { type: 'module', name });
    // The script is fetched asynchronously once the worker starts: revoke the URL well after.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return w;
  } catch {
    return null;
  }
}
