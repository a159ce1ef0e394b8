/**
 * What-if rows under the policy cards (issue 39): triggers besides the budget slider — the
 * session moving to a model with a smaller window, a 413 retry at a request-size limit — each as
 * the budget it implies and the two compared policies' verdicts there (model/evict/triggers.ts).
 * Computed only while the section is open.
 */
import { useMemo, useState } from 'react';
import type { EvictionContext } from '../../model/evict/policies.ts';
import {
  ANTHROPIC_REQUEST_LIMIT_BYTES,
  whatIfRows,
  type Trigger,
} from '../../model/evict/triggers.ts';
import type { PolicyChoice } from '../../state/eviction.ts';
import { useAppStore } from '../../state/store.ts';
import { fmtInt } from '../format.ts';
import { CountField } from './CountField.tsx';

const MB = 1024 * 1024;

export function WhatIfRows({
  ctx,
  choices,
}: {
  ctx: EvictionContext;
  choices: readonly [PolicyChoice, PolicyChoice];
}) {
  const [open, setOpen] = useState(false);
  const total = ctx.table.total;
  const [window, setWindow] = useState(() => Math.max(1, Math.floor(total / 2)));
  const [limitMb, setLimitMb] = useState(ANTHROPIC_REQUEST_LIMIT_BYTES / MB);
  const source = useAppStore((s) => s.source);
  // The body's size as read (the file's, for a streamed one): encoding a pasted body is a
  // full pass over its text (77 ms for 20 MB), so only while open, once per source.
  const bodyBytes = useMemo(
    () =>
      !open ? 0 : source.file ? source.file.size : new TextEncoder().encode(source.text).length,
    [open, source],
  );
  const triggers: Trigger[] = [
    { kind: 'smaller-window', window, reserve: 0 },
    { kind: 'retry-413', limitBytes: Math.max(1, Math.round(limitMb * MB)), bodyBytes },
  ];
  const rows = open
    ? whatIfRows(
        ctx,
        triggers,
        choices.map((c) => ({ id: c.id, options: c.options })),
      )
    : [];
  return (
    <section className="what-if" data-testid="what-if" aria-label="What if">
      {/* A button, not a nested <summary>: the simulator panel's own summary stays its only one. */}
      <button
        type="button"
        className="linklike"
        data-testid="what-if-toggle"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        What if: a smaller window, a 413 retry
      </button>
      {open && (
        <>
          <p className="what-if-inputs">
            <CountField
              before="window"
              after="tokens"
              label="Smaller model window in tokens"
              min={1}
              value={window}
              onChange={setWindow}
            />{' '}
            <CountField
              before="413 at"
              after="MB"
              label="Request size limit in MB"
              min={1}
              value={limitMb}
              onChange={setLimitMb}
            />
          </p>
          <table>
            <tbody>
              {rows.map((w) => (
                <tr key={w.trigger.kind} data-testid="what-if-row" data-trigger={w.trigger.kind}>
                  <th scope="row" title={w.note}>
                    {w.label}: budget {fmtInt(w.budget)}
                  </th>
                  {w.results.map((r, i) => (
                    <td
                      key={i}
                      data-policy={r.policy}
                      data-valid={r.validation.valid ? 'true' : 'false'}
                    >
                      {r.policy}:{' '}
                      {!w.happens
                        ? 'nothing to do'
                        : r.validation.valid
                          ? `valid${r.fits ? '' : ', over budget'}`
                          : `HTTP 400 [${r.firstError?.code ?? ''}]`}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
