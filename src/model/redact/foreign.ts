/**
 * The structure-only copy held to its vocabulary (issue 37): every string and every key of the
 * copy is read, and each must be structure — a word of the vocabulary (`vocabulary.ts`), a
 * placeholder, a renamed id or key, a date-time of the relative clock, a public model name, a
 * kept (or hidden) tool name, a media stand-in, or JSON text made of these. Anything else is
 * something of the original the copy still holds, wherever it sits (an email under `type`, a token
 * used as a key). No regular expression runs over a whole string of unbounded length, and the
 * walk keeps its own stack: an 8 MB hex dump in a tool result does not overflow.
 */
import { parseJsonBounded } from '../parse/json.ts';
import { publicModel, RENAMED_KEY, isTimestamp } from './renames.ts';
import { inVocabulary } from './vocabulary.ts';

/** A placeholder (`xxx xx xxxx`) or a signature's run of `x`, with whitespace around it. */
function isPlaceholder(s: string): boolean {
  const t = s.trim();
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c !== 120 && !(c === 32 && i > 0 && t.charCodeAt(i - 1) === 120)) return false;
  }
  return true;
}

/** A renamed id (`renames.ts` shapedId): `r`, zeros and a serial of at most 4, in its punctuation. */
function isRenamedId(s: string): boolean {
  if (s.length > 200) return false;
  const core = s.replace(/[^A-Za-z0-9]/g, '');
  return /^r0*[0-9a-z]{1,4}$/.test(core);
}

/** Where the relative clock runs: from 2000-01-01 (its zero) back a year and forward 19. */
function isRelativeTime(s: string): boolean {
  if (s.length > 40 || !isTimestamp(s)) return false;
  const y = new Date(Date.parse(s)).getUTCFullYear();
  return y >= 1999 && y < 2020;
}

/** The writers' stand-in addresses of media given by address (`https://example.invalid/image`). */
const STAND_IN_ADDRESS =
  /^(?:https:\/\/example\.invalid|s3:\/\/example-invalid)\/[a-z]{1,20}$|^file-service:\/\/$|^file[_-](?:image|document|audio|video)$/;

/**
 * A media payload stand-in: `AAAA…`, a data URL of a media type holding one, or a stand-in
 * address.
 */
function isMediaStandIn(s: string): boolean {
  if (s.length < 60 && STAND_IN_ADDRESS.test(s)) return true;
  const comma = s.startsWith('data:') ? s.indexOf(',') : -1;
  const body = comma >= 0 ? s.slice(comma + 1) : s;
  if (comma >= 0 && !/^data:[\w.+-]+\/[\w.+-]+;base64$/.test(s.slice(0, comma))) return false;
  for (let i = 0; i < body.length; i++) if (body.charCodeAt(i) !== 65) return false;
  return body.length > 0 || comma >= 0;
}

/**
 * True for a string a structure-only copy may hold: see the module comment.
 * @param keptNames the tool names the copy keeps (empty when hidden)
 */
export function isStructureString(s: string, keptNames: ReadonlySet<string>): boolean {
  if (s.trim() === '' || isPlaceholder(s) || inVocabulary(s) || keptNames.has(s)) return true;
  // A hidden tool name (redactor.ts): a letter or `T<n>`, padded with zeros.
  if (/^(?:[A-Z]|T\d{1,4})0*$/.test(s.length <= 400 ? s : '')) return true;
  if (isRenamedId(s) || isRelativeTime(s) || isMediaStandIn(s)) return true;
  // An AI SDK UI tool part is typed by its tool's name (`tool-getWeather`).
  if (s.startsWith('tool-') && isStructureString(s.slice(5), keptNames)) return true;
  if (s.length <= 200 && publicModel(s) === s) return true;
  return false;
}

/**
 * A key a structure-only copy may hold: a vocabulary word, a renamed key, the placeholder `_`, a
 * renamed id (a ChatGPT export keys its nodes by id).
 */
export function isStructureKey(k: string): boolean {
  return k === '_' || inVocabulary(k) || RENAMED_KEY.test(k) || isRenamedId(k);
}

/** JSON text inside a string (a result's `{"output": …}`, tool arguments), parsed, or undefined. */
function jsonInside(s: string): unknown {
  const t = s.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return parseJsonBounded(s);
  } catch {
    return undefined;
  }
}

/**
 * Every string and key of `docs` that is not structure (`isStructureString`, `isStructureKey`),
 * each cut to 120 characters, in the order met, without repeats.
 * @param docs the copy's parsed values (a document, or a log's lines)
 * @param keptNames the tool names the copy keeps (empty when hidden)
 */
export function foreignStrings(docs: readonly unknown[], keptNames: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [...docs];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (isStructureString(v, keptNames)) continue;
      const inner = jsonInside(v);
      if (inner !== undefined && inner !== null && typeof inner === 'object') stack.push(inner);
      else found.add(v.length > 120 ? `${v.slice(0, 120)}…` : v);
    } else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (!isStructureKey(k)) found.add(k.length > 120 ? `${k.slice(0, 120)}…` : k);
        stack.push(x);
      }
  }
  return [...found];
}
