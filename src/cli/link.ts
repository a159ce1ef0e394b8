/**
 * A link where a FILE goes (issue 15): every command accepts the page's link — a URL or its
 * fragment (`#v=1&t=…`, `v=1&src=invoice`) — and reads the transcript it carries, or the sample
 * it names. The permalink codec is the page's own (model/permalink/codec.ts: pure TypeScript,
 * fflate and zod), so a link means the same to both; what its view sets is applied by
 * `linkView.ts` and `linkApply.ts`. The codec is imported when a link is read, never before:
 * zod is most of the CLI's weight, and a FILE needs none of it (issue 38).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PermalinkView } from '../model/permalink/schema.ts';

/** The fragment of `arg` when it is a link (URL with a `#v=` fragment, or a fragment), else null. */
export function linkFragment(arg: string): string | null {
  if (/^https?:\/\//i.test(arg)) {
    const at = arg.indexOf('#');
    return at >= 0 ? arg.slice(at + 1) : '';
  }
  if (/^#?v=\d/.test(arg)) return arg.replace(/^#/, '');
  return null;
}

/**
 * How an input is named in messages: FILE as given, a link as its start and length (a link that
 * carries a transcript is kilobytes long; the whole of it made every line unreadable).
 */
export function inputLabel(arg: string): string {
  if (linkFragment(arg) === null || arg.length <= 60) return arg;
  return `link ${arg.slice(0, 40)}… (${arg.length.toLocaleString('en')} characters)`;
}

const SAMPLES = path.resolve(import.meta.dirname, '../../public/samples');

/** What a link carries: its transcript (as text, with a name for format hints) and its view. */
export interface LinkInput {
  text: string;
  name: string;
  /** The view the link sets, decoded by the page's codec (defaults where it says nothing). */
  view: PermalinkView;
  /** The link's keys and values as written (to tell a default from a value it sets). */
  params: URLSearchParams;
  /** The codec's notices on the view: values it refused (their default is used), a newer `v`. */
  notes: string[];
}

/**
 * The transcript a link carries, and its view (`linkApply.ts` applies what changes a verdict).
 * @throws (rejects with) Error saying why a link cannot be honoured: a refused or corrupt payload, a view-only
 *   link (it holds no transcript: open the file itself), an unknown sample
 */
export async function readLink(fragment: string): Promise<LinkInput> {
  const { decodePermalink, refusedSource } = await import('../model/permalink/codec.ts');
  const decoded = decodePermalink(fragment);
  const { state, notices } = decoded;
  const refused = refusedSource(decoded);
  if (refused) throw new Error(`the link cannot be read: ${refused.message}`);
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const rest = { view: state.view, params, notes: notices.map((n) => n.message) };
  const s = state.source;
  if (s.kind === 'inline')
    return { text: s.text, name: s.redacted ? 'structure-only link' : 'link', ...rest };
  if (s.kind === 'sample') {
    for (const ext of ['.json', '.jsonl']) {
      const file = path.join(SAMPLES, s.id + ext);
      if (existsSync(file)) return { text: readFileSync(file, 'utf8'), name: s.id + ext, ...rest };
    }
    throw new Error(`the link names the sample "${s.id}", which is not in ${SAMPLES}`);
  }
  throw new Error(
    `the link holds the view only, not the transcript${s.name ? ` (it was made for “${s.name}”)` : ''}: run the command on that file`,
  );
}
