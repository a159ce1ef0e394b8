/**
 * The fleet's requests: a sortable, virtualised list (TanStack Virtual: only the rows on screen
 * are in the DOM, for thousands to millions of rows). A row opens its session in the inspector.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import type { ScanRecord } from '../../model/scan/report.ts';
import { scanTokensWords } from '../../model/tokenWords.ts';
import { ruleInWords } from './words.ts';

/** A column: its header, its cell text and the value it sorts by. */
interface Column {
  key: string;
  label: string;
  /** What the column counts, when its label alone does not say (the header's tooltip), by the rows' token basis. */
  title?: (tokenBasis: string) => string;
  text: (r: ScanRecord) => string;
  sort: (r: ScanRecord) => string | number;
}

const num = (v: number | null) => v ?? -1;
const verdict = (r: ScanRecord) =>
  r.error !== null ? 'unreadable' : r.valid ? 'valid' : `400 ${r.first_code ?? ''}`;

const COLUMNS: Column[] = [
  { key: 'path', label: 'File', text: (r) => r.path, sort: (r) => r.path },
  {
    key: 'request',
    label: 'Req.',
    text: (r) => (r.request === null ? '' : `${r.request + 1}/${r.requests}`),
    sort: (r) => num(r.request),
  },
  { key: 'format', label: 'Format', text: (r) => r.format ?? '', sort: (r) => r.format ?? '' },
  {
    key: 'messages',
    label: 'Msgs',
    text: (r) => String(r.messages ?? ''),
    sort: (r) => num(r.messages),
  },
  {
    key: 'tokens',
    label: 'Tokens',
    title: scanTokensWords,
    text: (r) => String(r.tokens ?? ''),
    sort: (r) => num(r.tokens),
  },
  {
    key: 'verdict',
    label: 'Verdict',
    text: verdict,
    // Unreadable, then 400s, then valid, when descending.
    sort: (r) => (r.error !== null ? 2 : r.valid ? 0 : 1),
  },
  {
    key: 'rule',
    label: 'First error',
    text: (r) =>
      (r.error ?? (r.first_rule === null ? '' : ruleInWords(r.first_rule))) +
      // The message the provider's 400 names (`Violation.messageIndex`, as `check` prints it):
      // for some rules the turn before the one to mend (A3 names the call's turn).
      (r.first_message !== null ? ` · the 400 names #${r.first_message}` : ''),
    sort: (r) => r.error ?? r.first_rule ?? '',
  },
  {
    key: 'cuts400',
    label: 'Cuts → 400',
    text: (r) =>
      r.cuts.length ? `${r.cuts.filter((c) => c.gives400).length}/${r.cuts.length}` : '',
    sort: (r) => (r.cuts.length ? r.cuts.filter((c) => c.gives400).length / r.cuts.length : -1),
  },
  {
    key: 'compactions',
    label: 'Compact.',
    text: (r) => String(r.compactions ?? ''),
    sort: (r) => num(r.compactions),
  },
];

const ROW_PX = 30;

export function FleetList({
  rows,
  onOpen,
}: {
  rows: readonly ScanRecord[];
  onOpen: (row: ScanRecord) => void;
}) {
  const [sort, setSort] = useState<{ key: string; desc: boolean }>({ key: 'path', desc: false });
  const sorted = useMemo(() => {
    const col = COLUMNS.find((c) => c.key === sort.key) ?? (COLUMNS[0] as Column);
    const keyed = rows.map((r, i) => ({ r, k: col.sort(r), i }));
    keyed.sort((a, b) => {
      const d = a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i;
      return sort.desc ? -d : d;
    });
    return keyed.map((x) => x.r);
  }, [rows, sort]);
  // The page's scan counts by chars/4 (`scanText`'s default); a CLI report may say o200k_base.
  const tokenBasis = useMemo(
    () => rows.find((r) => r.token_basis !== null)?.token_basis ?? 'chars/4',
    [rows],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 10,
  });
  return (
    <div
      className="fleet-list"
      role="table"
      aria-label="Requests"
      aria-rowcount={sorted.length + 1}
    >
      <div className="fleet-row fleet-head" role="row">
        {COLUMNS.map((c) => (
          <span
            key={c.key}
            role="columnheader"
            aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
          >
            <button
              type="button"
              data-testid={`fleet-sort-${c.key}`}
              title={c.title?.(tokenBasis)}
              onClick={() =>
                setSort((s) => ({ key: c.key, desc: s.key === c.key ? !s.desc : false }))
              }
            >
              {c.label}
              {sort.key === c.key ? (sort.desc ? ' ▾' : ' ▴') : ''}
            </button>
          </span>
        ))}
      </div>
      <div ref={scroller} className="fleet-scroll" data-testid="fleet-scroll">
        <div style={{ height: v.getTotalSize(), position: 'relative' }} role="rowgroup">
          {v.getVirtualItems().map((item) => {
            const r = sorted[item.index] as ScanRecord;
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                tabIndex={0}
                className={`fleet-row${r.error !== null ? ' unreadable' : r.valid === false ? ' invalid' : ''}`}
                data-testid="fleet-row"
                data-path={r.path}
                data-request={r.request ?? ''}
                style={{
                  position: 'absolute',
                  top: 0,
                  transform: `translateY(${item.start}px)`,
                  height: ROW_PX,
                }}
                onClick={() => onOpen(r)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') onOpen(r);
                }}
                title={r.error !== null ? r.error : `Open ${r.path} in the inspector`}
              >
                {COLUMNS.map((c) => (
                  <span key={c.key} role="cell">
                    {c.text(r)}
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
