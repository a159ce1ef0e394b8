/**
 * A small POSIX shell word splitter, enough to read a pasted `curl` command: single quotes,
 * double quotes with backslash escapes, ANSI-C `$'…'` quotes, backslash escapes and line
 * continuations (`\` + newline). No expansion: `$VAR` and `$(…)` stay as written.
 * Source of the rules: POSIX Shell Command Language §2.2 (Quoting) and bash's `$'…'` quoting.
 */

import { nameTable } from '../../own.ts';

/** One shell word after quote removal, with where it sits in the pasted text. */
export interface ShellWord {
  /** The word's value after quote removal and escape processing. */
  value: string;
  /** UTF-16 offset in the paste of the word's first character (a quote, if it starts with one). */
  start: number;
  /**
   * For each character of `value`, the UTF-16 offset in the paste it came from (length
   * `value.length`); an escape maps to its backslash.
   */
  offsets: number[];
}

/** The outcome of splitting: the words of the first command, and what stopped the split. */
export interface ShellSplit {
  words: ShellWord[];
  /** Set when a quote was left open: its kind and its offset in the paste. */
  unclosed?: { quote: string; offset: number };
}

const ANSI_SIMPLE: ReadonlyMap<string, string> = nameTable({
  a: '\u0007',
  b: '\b',
  e: '\u001b',
  E: '\u001b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
});

const HEX = /^[0-9a-fA-F]+$/;

/** Read one `$'…'` escape at `i` (the backslash); returns the text and the offset after it. */
function ansiEscape(text: string, i: number): { out: string; next: number } {
  const c = text[i + 1];
  if (c === undefined) return { out: '\\', next: i + 1 };
  const simple = ANSI_SIMPLE.get(c);
  if (simple !== undefined) return { out: simple, next: i + 2 };
  const hexRun = (from: number, max: number): string => {
    let j = from;
    while (j < from + max && j < text.length && HEX.test(text[j] as string)) j++;
    return text.slice(from, j);
  };
  if (c === 'x' || c === 'u' || c === 'U') {
    const digits = hexRun(i + 2, c === 'x' ? 2 : c === 'u' ? 4 : 8);
    if (digits.length === 0) return { out: `\\${c}`, next: i + 2 };
    const cp = parseInt(digits, 16);
    const out = cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
    return { out, next: i + 2 + digits.length };
  }
  if (c >= '0' && c <= '7') {
    let j = i + 1;
    while (j < i + 4 && j < text.length && (text[j] as string) >= '0' && (text[j] as string) <= '7')
      j++;
    return { out: String.fromCharCode(parseInt(text.slice(i + 1, j), 8) & 0xff), next: j };
  }
  if (c === 'c' && i + 2 < text.length) {
    return {
      out: String.fromCharCode((text.charCodeAt(i + 2) & 0x1f) >>> 0),
      next: i + 3,
    };
  }
  return { out: `\\${c}`, next: i + 2 };
}

/** Appends characters of a word, each with its offset in the text. */
type Push = (s: string, at: number) => void;

/**
 * Read an ANSI-C quoted string (`$'…'`) from just after its opening quote: backslash escapes are
 * decoded (`ansiEscape`).
 * @returns the offset of the closing `'`, or -1 when the quote is never closed
 */
function readAnsiC(text: string, from: number, push: Push): number {
  let j = from;
  while (j < text.length) {
    const d = text[j] as string;
    if (d === "'") return j;
    if (d === '\\') {
      const { out, next } = ansiEscape(text, j);
      push(out, j);
      j = next;
      continue;
    }
    push(d, j);
    j++;
  }
  return -1;
}

/**
 * Read a double-quoted string from just after its opening `"`: a backslash escapes only `$`,
 * `` ` ``, `"`, `\\` and a newline (a line continuation); any other backslash stays.
 * @returns the offset of the closing `"`, or -1 when the quote is never closed
 */
function readDoubleQuoted(text: string, from: number, push: Push): number {
  let j = from;
  while (j < text.length) {
    const d = text[j] as string;
    if (d === '"') return j;
    if (d === '\\') {
      const e = text[j + 1];
      if (e === '\n') {
        j += 2;
        continue;
      }
      if (e === '$' || e === '`' || e === '"' || e === '\\') {
        push(e, j);
        j += 2;
        continue;
      }
    }
    push(d, j);
    j++;
  }
  return -1;
}

/**
 * Split the first command of a shell text into words.
 * @param text the pasted text (may hold a prompt `$ ` before the command; the caller strips it)
 * @param from UTF-16 offset to start at
 * @returns the words up to the end of the first command (an unquoted newline not escaped,
 *   `;`, `|`, `&`, or the end of the text); `unclosed` when a quote is never closed. Never throws.
 */
export function splitShell(text: string, from = 0): ShellSplit {
  const words: ShellWord[] = [];
  let i = from;
  const n = text.length;
  let cur: ShellWord | null = null;
  const push = (s: string, at: number) => {
    if (!cur) cur = { value: '', start: at, offsets: [] };
    cur.value += s;
    for (let k = 0; k < s.length; k++) cur.offsets.push(at);
  };
  const end = () => {
    if (cur) words.push(cur);
    cur = null;
  };
  while (i < n) {
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1];
      if (next === '\n') {
        i += 2; // line continuation
        continue;
      }
      if (next === '\r' && text[i + 2] === '\n') {
        i += 3;
        continue;
      }
      if (next === undefined) {
        i++;
        continue;
      }
      push(next, i);
      i += 2;
      continue;
    }
    if (c === "'") {
      if (!cur) cur = { value: '', start: i, offsets: [] };
      const close = text.indexOf("'", i + 1);
      if (close < 0) {
        end();
        return { words, unclosed: { quote: "'", offset: i } };
      }
      for (let k = i + 1; k < close; k++) push(text[k] as string, k);
      i = close + 1;
      continue;
    }
    if (c === '"' || (c === '$' && text[i + 1] === "'")) {
      if (!cur) cur = { value: '', start: i, offsets: [] };
      const close = c === '"' ? readDoubleQuoted(text, i + 1, push) : readAnsiC(text, i + 2, push);
      if (close < 0) {
        end();
        return { words, unclosed: { quote: c === '"' ? '"' : "$'", offset: i } };
      }
      i = close + 1;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      end();
      i++;
      continue;
    }
    if (c === '\n' || c === ';' || c === '|' || c === '&') {
      end();
      break;
    }
    if (c === '#' && !cur) {
      // A comment runs to the end of the line.
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    push(c, i);
    i++;
  }
  end();
  return { words };
}

/**
 * Quote a string for a POSIX shell with single quotes (`'` becomes `'\''`), as "Copy as cURL"
 * does. The inverse of `splitShell` for one word.
 * @param s any string
 * @returns the quoted word
 */
export function quoteSingle(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/**
 * Quote a string for a POSIX shell with double quotes (backslash, `"`, `$` and backquote escaped).
 * The inverse of `splitShell` for one word.
 * @param s any string
 * @returns the quoted word
 */
export function quoteDouble(s: string): string {
  return `"${s.replace(/[\\"$`]/g, (c) => `\\${c}`)}"`;
}

/**
 * Quote a string as a bash ANSI-C word `$'…'` (as Chrome's "Copy as cURL" does when the body
 * holds a quote or a control character): backslash, `'` and control characters escaped.
 * The inverse of `splitShell` for one word.
 * @param s any string
 * @returns the quoted word
 */
export function quoteAnsi(s: string): string {
  let body = '';
  for (const c of s) {
    const code = c.charCodeAt(0);
    if (c === '\\' || c === "'") body += `\\${c}`;
    else if (c === '\n') body += '\\n';
    else if (code < 0x20 || code === 0x7f) body += `\\x${code.toString(16).padStart(2, '0')}`;
    else body += c;
  }
  return `$'${body}'`;
}

/**
 * Split a Windows `cmd.exe` command line into words, as Chrome's "Copy as cURL (cmd)" writes it:
 * `^` escapes the next character (`^` + newline continues the line), then the argument rules of
 * `CommandLineToArgvW`: `"` toggles quoting, `\"` is a literal quote, backslashes before a quote
 * are halved. Source: Microsoft's "Parsing C++ command-line arguments" and cmd's caret escape.
 * @param text the pasted text
 * @param from UTF-16 offset of the command's first character
 * @returns the words of the first command (up to an unescaped newline), with their offsets;
 *   `unclosed` when a quote is still open at the end. Never throws.
 */
export function splitCmd(text: string, from = 0): ShellSplit {
  // Pass 1: cmd's caret escapes; `chars` keeps each surviving character with its offset.
  const chars: { c: string; at: number }[] = [];
  let i = from;
  // Inside a plain "…" cmd itself keeps carets literal; Chrome writes ^" so it never is.
  let cmdQuoted = false;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') cmdQuoted = !cmdQuoted;
    if (c === '^' && !cmdQuoted) {
      const next = text[i + 1];
      if (next === '\n') {
        i += 2;
        continue;
      }
      if (next === '\r' && text[i + 2] === '\n') {
        i += 3;
        continue;
      }
      if (next !== undefined) chars.push({ c: next, at: i });
      i += 2;
      continue;
    }
    if (c === '\n') break;
    if (c !== '\r') chars.push({ c, at: i });
    i++;
  }
  // Pass 2: CommandLineToArgvW.
  const words: ShellWord[] = [];
  let cur: ShellWord | null = null;
  let quoted = false;
  let quoteAt = 0;
  const push = (s: string, at: number) => {
    cur ??= { value: '', start: at, offsets: [] };
    cur.value += s;
    for (let k = 0; k < s.length; k++) cur.offsets.push(at);
  };
  for (let k = 0; k < chars.length; k++) {
    const { c, at } = chars[k] as { c: string; at: number };
    if (c === '\\') {
      let n = 0;
      while (chars[k + n]?.c === '\\') n++;
      if (chars[k + n]?.c === '"') {
        push('\\'.repeat(Math.floor(n / 2)), at);
        if (n % 2 === 1) {
          push('"', (chars[k + n] as { at: number }).at);
          k += n;
        } else k += n - 1; // the quote toggles on the next turn
      } else {
        push('\\'.repeat(n), at);
        k += n - 1;
      }
      continue;
    }
    if (c === '"') {
      cur ??= { value: '', start: at, offsets: [] };
      quoted = !quoted;
      quoteAt = at;
      continue;
    }
    if (!quoted && (c === ' ' || c === '\t')) {
      if (cur) words.push(cur);
      cur = null;
      continue;
    }
    push(c, at);
  }
  if (cur) words.push(cur);
  return quoted ? { words, unclosed: { quote: '"', offset: quoteAt } } : { words };
}

/**
 * Quote a string the way Chrome's "Copy as cURL (cmd)" does: `^"…^"` around, `"` as `\^"`,
 * cmd's special characters behind a caret. The inverse of `splitCmd` for one word (used by
 * tests).
 * @param s any string without newlines
 * @returns the quoted word
 */
export function quoteCmd(s: string): string {
  let out = '';
  let slashes = 0;
  for (const c of s) {
    if (c === '\\') {
      slashes++;
      out += c;
      continue;
    }
    if (c === '"') {
      out += `${'\\'.repeat(slashes)}\\^"`;
    } else if ('^&|<>()%!'.includes(c)) out += `^${c}`;
    else out += c;
    slashes = 0;
  }
  return `^"${out}${'\\'.repeat(slashes)}^"`;
}
