/**
 * The timeline with its arcs as a standalone SVG document (issue 6 export). Pure: the analysis
 * in, SVG text out. Every row is drawn (the page virtualizes; an export must not), with the
 * same arc geometry as the page (`layoutArcs`, `assignLanes`). Styles are inline so the file
 * opens the same in an image viewer, a browser or a document.
 */
import type { Analysis } from '../../model/analyze.ts';
import { messageLabels } from '../../model/messageLabels.ts';
import { blockWordsOf, type BlockWords } from '../../model/parse/registry.ts';
import { redactMessages } from '../../model/redact.ts';
import type { TextCounter } from '../../model/tokens.ts';
import type { Block, Message } from '../../model/types.ts';
import {
  DEFAULT_ARC_OPTIONS,
  assignLanes,
  layoutArcs,
  pairSpan,
  type Span,
} from '../arcs/arcLayout.ts';

/** Row height in px: one line of 12 px text with room around it. */
export const SVG_ROW_HEIGHT = 22;
/** Width of the row area right of the arc gutter, in px. */
export const SVG_ROWS_WIDTH = 640;
/** Characters of text shown per row (a preview, not the transcript). */
export const SVG_PREVIEW_CHARS = 80;

const COLORS = {
  ok: '#57606a',
  broken: '#d92d20',
  band: '#f6f8fa',
  bandText: '#24292f',
  text: '#24292f',
  dim: '#8c959f',
  bg: '#ffffff',
};

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Escape text for an XML text node or attribute: content is text, never markup. */
export function xmlEscape(s: string): string {
  // Characters XML 1.0 does not allow at all are dropped (they would make the file unreadable).
  return s.replace(XML_FORBIDDEN, '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A block as a row of the picture says it (a call and a result in the format's words). */
function blockLabel(b: Block, words: BlockWords): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'tool_use':
      return `${words.call} ${b.name}`;
    case 'tool_result':
      return `${words.result}${b.isError ? ' (error)' : ''}`;
    case 'thinking':
      return 'thinking';
    case 'redacted_thinking':
      return 'redacted thinking';
    case 'image':
    case 'document':
      return b.type;
    case 'other':
      return b.label;
  }
}

/** A row as the page labels it: its source position (`#5`, `#5.2`), role and blocks. */
function rowText(m: Message, label: string, words: BlockWords): string {
  const body = m.blocks
    .map((b) => blockLabel(b, words))
    .join(' · ')
    .replace(/\s+/g, ' ')
    .trim();
  const line = `${label} ${m.role}${body ? ` · ${body}` : ''}`;
  return line.length > SVG_PREVIEW_CHARS ? `${line.slice(0, SVG_PREVIEW_CHARS - 1)}…` : line;
}

export interface TimelineSvgOptions {
  /** Messages (ours) evicted by the chosen policy: drawn greyed and struck through. */
  evicted?: ReadonlySet<number>;
  title?: string;
  /**
   * Draw the rows of the structure-only copy (`redactMessages`): same-size placeholders stand in
   * for every text, as in a structure-only link; roles and block types stay, tool names unless
   * `toolNames: 'hide'` (renamed as that link renames them). `counter` is the one the placeholders
   * keep their token counts under (the page's; default chars/4).
   */
  structureOnly?: { counter?: TextCounter; toolNames?: 'keep' | 'hide' };
}

/** Keys of the pairs with exactly one end evicted (a call kept without its result, or the reverse). */
function cutPairs(a: Analysis, evicted: ReadonlySet<number> | undefined): Set<string> {
  const out = new Set<string>();
  if (!evicted || evicted.size === 0) return out;
  for (const p of a.pairs) {
    if (!p.call || !p.result) continue;
    if (evicted.has(p.call.message) !== evicted.has(p.result.message)) out.add(p.key);
  }
  return out;
}

/**
 * Render the whole timeline (exchange bands, message rows, arcs) as SVG.
 * @returns a standalone `<svg>` document (UTF-8 text); size in px is in its width/height
 */
export function buildTimelineSvg(a: Analysis, opts: TimelineSvgOptions = {}): string {
  // The copy keeps every message's position and blocks' order: pairs and exchanges still apply.
  const messages = opts.structureOnly
    ? redactMessages(a.transcript.messages, opts.structureOnly)
    : a.transcript.messages;
  const labels = messageLabels(messages);
  const words = blockWordsOf(a.transcript.format);
  const { exchanges, exchangeOf } = a.grouping;
  const rows: { kind: 'band' | 'message'; index: number }[] = [];
  const rowOfMessage = new Int32Array(messages.length).fill(-1);
  messages.forEach((_, i) => {
    const x = exchangeOf[i] ?? -1;
    if (x >= 0 && exchanges[x]?.first === i) rows.push({ kind: 'band', index: x });
    rowOfMessage[i] = rows.length;
    rows.push({ kind: 'message', index: i });
  });
  const header = opts.title ? SVG_ROW_HEIGHT : 0;
  const height = header + rows.length * SVG_ROW_HEIGHT + 4;
  const gutter = DEFAULT_ARC_OPTIONS.gutterWidth;
  const width = gutter + SVG_ROWS_WIDTH;
  const rowBox = (message: number) => ({
    top: header + (rowOfMessage[message] ?? 0) * SVG_ROW_HEIGHT,
    height: SVG_ROW_HEIGHT,
  });
  const spans = a.pairs.map(pairSpan).filter((s): s is Span => s !== null);
  const arcs = layoutArcs(a.pairs, assignLanes(spans), rowBox, { top: 0, bottom: height });

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" font-size="12">`,
  );
  out.push(`<rect width="100%" height="100%" fill="${COLORS.bg}"/>`);
  if (opts.title)
    out.push(
      `<text x="8" y="${SVG_ROW_HEIGHT - 7}" font-weight="bold" fill="${COLORS.text}">${xmlEscape(opts.title)}</text>`,
    );
  rows.forEach((r, i) => {
    const y = header + i * SVG_ROW_HEIGHT;
    if (r.kind === 'band') {
      const x = exchanges[r.index];
      out.push(
        `<rect x="${gutter}" y="${y + 1}" width="${SVG_ROWS_WIDTH}" height="${SVG_ROW_HEIGHT - 2}" fill="${COLORS.band}"/>`,
      );
      out.push(
        `<text x="${gutter + 6}" y="${y + SVG_ROW_HEIGHT - 7}" fill="${COLORS.bandText}" font-weight="bold">Exchange ${r.index + 1}${x ? ` · ${x.messages.length} message${x.messages.length === 1 ? '' : 's'}` : ''}</text>`,
      );
    } else {
      const m = messages[r.index];
      if (!m) return;
      const gone = opts.evicted?.has(r.index) === true;
      out.push(
        `<text x="${gutter + 6}" y="${y + SVG_ROW_HEIGHT - 7}" fill="${gone ? COLORS.dim : COLORS.text}"${gone ? ' text-decoration="line-through"' : ''} data-message-index="${r.index}">${xmlEscape(rowText(m, labels.of(r.index), words))}</text>`,
      );
    }
  });
  const cut = cutPairs(a, opts.evicted);
  for (const arc of arcs) {
    // A pair the chosen eviction cuts (one end dropped) is broken in the kept request: red, dashed.
    const isCut = cut.has(arc.id);
    const color = arc.broken || isCut ? COLORS.broken : COLORS.ok;
    out.push(
      `<path d="${xmlEscape(arc.d)}" fill="none" stroke="${color}" stroke-width="1.5"${arc.partial || isCut ? ' stroke-dasharray="4 3"' : ''}${isCut ? ' data-cut="true"' : ''} data-arc-id="${xmlEscape(arc.id)}"/>`,
    );
    for (const end of [arc.from, arc.to])
      if (end.kind === 'nowhere')
        out.push(`<circle cx="${arc.x}" cy="${end.y}" r="3" fill="${color}"/>`);
  }
  out.push('</svg>');
  return out.join('\n');
}
