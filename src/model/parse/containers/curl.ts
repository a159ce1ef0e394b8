/**
 * A pasted `curl` command (DevTools "Copy as cURL" for bash or for Windows cmd, a README, a bug
 * report): the JSON body of
 * `-d` / `--data` / `--data-raw` / `--data-binary` / `--json` and the URL, whose path decides the
 * format hint (docs/formats.md#curl); containers are read first. Bodies read from a file or
 * stdin (`-d @body.json`, `--data @-` with a heredoc) are not in the paste: out of scope, with a
 * message that says so.
 */
import type { ParseError, Result, SourceLocation } from '../../types.ts';
import { locate, parseJsonText } from '../json.ts';
import { splitCmd, splitShell, type ShellWord } from './shell.ts';
import type { ContainerRead } from './types.ts';
import { endpointOfUrl } from '../../validate/endpoints/recognise.ts';
import { displayUrl, formatOfUrl } from './urlFormat.ts';

/** Options that carry the request body. */
const DATA_OPTS = new Set([
  '-d',
  '--data',
  '--data-raw',
  '--data-binary',
  '--data-ascii',
  '--json',
]);

/** curl options that take an argument (so that argument is not the URL). */
const ARG_OPTS = new Set([
  '-H',
  '--header',
  '-X',
  '--request',
  '-u',
  '--user',
  '-o',
  '--output',
  '-A',
  '--user-agent',
  '-e',
  '--referer',
  '-b',
  '--cookie',
  '-c',
  '--cookie-jar',
  '-m',
  '--max-time',
  '--connect-timeout',
  '-x',
  '--proxy',
  '-w',
  '--write-out',
  '--cacert',
  '--cert',
  '-E',
  '--key',
  '-F',
  '--form',
  '--retry',
  '-T',
  '--upload-file',
  '--resolve',
  '--data-urlencode',
  '-K',
  '--config',
  '--limit-rate',
  '-r',
  '--range',
  '--interface',
  '--aws-sigv4',
  '--oauth2-bearer',
  '--proxy-user',
  '-U',
  '--max-filesize',
  '--retry-delay',
  '--retry-max-time',
  '--keepalive-time',
  '--expect100-timeout',
  '-Y',
  '-y',
  '--speed-limit',
  '--speed-time',
]);

/** Where the command starts: `curl` at the start of a line, after an optional `$ ` prompt. */
const START = /^[ \t]*(?:[$>#%][ \t]+)?(curl(?:\.exe)?)(?=[ \t\\\r\n]|$)/m;

/** True when the text (after leading blank lines and a prompt) starts with a curl command. */
export function looksLikeCurl(text: string): boolean {
  const m = /^\s*(?:[$>%][ \t]+)?curl(?:\.exe)?(?=[\s\\]|$)/.exec(text.slice(0, 4096));
  return m !== null;
}

function describeAt(text: string, offset: number): string {
  const l = locate(text, offset);
  return `line ${l.line}, column ${l.column}`;
}

/** One data option's value, and where it starts inside its word (after an attached `-d`). */
interface CurlBody {
  word: ShellWord;
  value: string;
  valueStart: number;
}

/** The URL (`--url`, else the first bare word) and the data bodies, from the words after `curl`. */
function scanArgs(words: readonly ShellWord[]): { url: string | undefined; bodies: CurlBody[] } {
  let url: string | undefined;
  const bodies: CurlBody[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as ShellWord;
    const v = w.value;
    if (DATA_OPTS.has(v)) {
      const arg = words[i + 1];
      if (arg) bodies.push({ word: arg, value: arg.value, valueStart: 0 });
      i++;
      continue;
    }
    // Attached forms: -d'{…}' (one word `-d{…}`), --data={…}.
    const attached = /^(-d|--data(?:-raw|-binary|-ascii)?=|--json=)/.exec(v);
    if (attached && v.length > attached[0].length) {
      bodies.push({ word: w, value: v.slice(attached[0].length), valueStart: attached[0].length });
      continue;
    }
    if (v === '--url') {
      url = words[i + 1]?.value ?? url;
      i++;
      continue;
    }
    if (ARG_OPTS.has(v)) {
      i++;
      continue;
    }
    if (v.startsWith('-') && v.length > 1) continue;
    url ??= v;
  }
  return { url, bodies };
}

/** Why the bodies cannot be read from the paste (none, or one read from a file or stdin), or null. */
function missingBody(text: string, bodies: readonly CurlBody[]): ParseError | null {
  const first = bodies[0];
  if (!first)
    return {
      kind: 'shape',
      message:
        'This curl command sends no body (no -d, --data, --data-raw, --data-binary or --json): there is no request to inspect.',
    };
  if (bodies.some((b) => b.value.startsWith('@')))
    return {
      kind: 'shape',
      message:
        'This curl command reads its body from a file or from stdin (`-d @file`, `--data @-` with a heredoc), which is not part of the paste. Paste the JSON body itself (or the command with the JSON inline).',
      location: locate(text, first.word.start),
    };
  return null;
}

/**
 * The JSON of `body` (which starts at `startLine` of the paste), or a ParseError: too deep, or
 * not JSON (line and column inside the body, and where the body starts in the paste).
 */
function bodyJson(body: string, startLine: SourceLocation): Result<unknown, ParseError> {
  const parsed = parseJsonText(body);
  if (parsed.ok) return parsed;
  if (parsed.error.tooDeep)
    return {
      ok: false,
      error: {
        kind: 'limit',
        message: `In the body of the curl command (it starts at line ${startLine.line} of the paste): ${parsed.error.message}`,
        location: parsed.error.location,
      },
    };
  const inner = parsed.error.location;
  return {
    ok: false,
    error: {
      kind: 'json',
      message: `The body of the curl command (it starts at line ${startLine.line}, column ${startLine.column} of the paste) is not valid JSON: at line ${inner.line}, column ${inner.column} of the body, ${parsed.error.message.replace(/^Invalid JSON at line \d+, column \d+: /, '').replace(/\.$/, '')}.`,
      location: inner,
    },
  };
}

/**
 * Read a pasted curl command.
 * @param text the whole paste
 * @returns null when the text does not start with `curl`; else one entry (the parsed JSON body,
 *   with the URL's format hint and "body of the curl command, line N"), or a ParseError: no
 *   body, a body read from a file or stdin, an unclosed quote (with its line and column in the
 *   paste), or a body that is not JSON (line and column inside the body, and where the body
 *   starts in the paste). Never throws.
 */
export function readCurl(text: string): ContainerRead {
  if (!looksLikeCurl(text)) return null;
  const m = START.exec(text);
  if (!m) return null;
  const cmdStart = m.index + m[0].length - (m[1] as string).length;
  // Chrome's "Copy as cURL (cmd)" escapes with carets: its first argument starts with ^" or its
  // first line ends with ^ (a body's content never decides: it may hold carets in bash too).
  const firstLine = /^[^\n]*/.exec(text.slice(cmdStart))?.[0] ?? '';
  const cmd = /^curl(?:\.exe)?[ \t]+\^/.test(firstLine) || /[ \t]\^\r?$/.test(firstLine);
  const split = cmd ? splitCmd(text, cmdStart) : splitShell(text, cmdStart);
  if (split.unclosed) {
    const error: ParseError = {
      kind: 'json',
      message: `The curl command has a ${split.unclosed.quote === '"' ? 'double' : 'single'} quote opened at ${describeAt(text, split.unclosed.offset)} that is never closed: the paste looks cut off.`,
      location: locate(text, split.unclosed.offset),
    };
    return { ok: false, error };
  }
  const { url, bodies } = scanArgs(split.words.slice(1));
  const missing = missingBody(text, bodies);
  if (missing) return { ok: false, error: missing };
  const first = bodies[0] as CurlBody;
  // curl joins several data options with `&`.
  const body = bodies.map((b) => b.value).join('&');
  const bodyStart = first.word.offsets[first.valueStart] ?? first.word.start;
  const startLine = locate(text, bodyStart);
  const parsed = bodyJson(body, startLine);
  if (!parsed.ok) return parsed;
  const hint = url !== undefined ? formatOfUrl(url) : undefined;
  const hit = url !== undefined ? endpointOfUrl(url, parsed.value) : null;
  const endpoint = hit?.id;
  const where = `body of the curl command, line ${startLine.line}`;
  const target = url !== undefined ? ` (${displayUrl(url)})` : '';
  return {
    ok: true,
    value: [
      {
        label: `curl${target}`,
        value: parsed.value,
        note: {
          kind: 'curl',
          where: `${where}${target}`,
          ...(hint ? { formatHint: hint } : {}),
          ...(endpoint ? { endpoint } : {}),
          ...(hit?.model !== undefined ? { model: hit.model } : {}),
        },
      },
    ],
  };
}
