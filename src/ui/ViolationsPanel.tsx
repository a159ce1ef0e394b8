/**
 * The verdict: each violation in the order the provider meets it, with the rule in plain words,
 * why the provider refuses it, the exact JSON error body (copyable) and a jump to the message.
 */
import { nameTable } from '../model/own.ts';
import type { ProviderId } from '../model/types.ts';
import { ModelPicker } from './ModelPicker.tsx';
import { useEffect, useRef, useState } from 'react';
import type { RequestRows } from '../model/requestRows.ts';
import { ruleAsOf } from '../model/validate/catalogue/index.ts';
import type { Validation, Violation } from '../model/validate/index.ts';
import type { ViolationTarget } from '../state/selectors.ts';
import { fmtInt, idListText, prettyJson } from './format.ts';
import { RequestIndexNote } from './RequestIndexNote.tsx';

export interface ViolationsPanelProps {
  validation: Validation;
  providerLabel: string;
  /** The provider and the model the transcript names, for the Model picker (ModelPicker.tsx). */
  model?: { provider: ProviderId; transcriptModel: string | undefined };
  targets: ViolationTarget[];
  /** How the provider's request is made of rows (`selectRequestRows`), when it says. */
  request?: RequestRows | null;
  /** The selected message (ours), or -1: its violations are marked and scrolled into view. */
  currentMessage: number;
  onJump: (message: number) => void;
  /**
   * The file still being read when the rows shown are its first messages (`partialLoadName`):
   * the verdict waits (no violations, no error body to copy); null/undefined = complete.
   */
  provisional?: string | null | undefined;
  /**
   * Set when the provider judged is one the user chose, not the request's own: that one's label
   * and how to go back to it.
   */
  chosen?: { own: string; reset: () => void } | null;
  /** A session log shown whole (no call chosen): the verdict says it judges no sent request. */
  wholeLog?: boolean;
  /**
   * The API error the log records for the call shown (a session log's chosen call), or null: said
   * beside the structural verdict, which judges the messages only.
   */
  recordedError?: string | null;
}

/**
 * A call's recorded API error, beside its structural verdict: the log says the call failed, and
 * whether the structure explains it (newcomer: a green "would accept this request" over a call
 * whose log records a 400 for a bad model name).
 */
function RecordedError({ text, valid }: { text: string; valid: boolean }) {
  return (
    <div className="recorded-error" data-testid="recorded-error" role="note">
      <p className="recorded-error-head">The log records an API error for this call</p>
      <pre className="recorded-error-text">
        {text.length > 600 ? `${text.slice(0, 600)}…` : text}
      </pre>
      <p className="recorded-error-why">
        {valid
          ? 'The verdict above judges the structure of the messages, and it passes: the structure is not the cause (e.g. the model name, a quota, the server).'
          : 'The verdict above names what the structure rules find; the recorded error may be it.'}
      </p>
    </div>
  );
}

/** The verdict names a chosen provider as chosen, with the request's own one a click away. */
function ChosenProvider({
  label,
  chosen,
}: {
  label: string;
  chosen: { own: string; reset: () => void };
}) {
  return (
    <p className="share-note" data-testid="provider-chosen">
      Judged for {label} because you chose it; this request's own provider is {chosen.own}.{' '}
      <button type="button" data-testid="provider-reset" onClick={chosen.reset}>
        Judge for {chosen.own}
      </button>
    </p>
  );
}

/** The first error's rank, for the log as one request: no call got it. */
const WHOLE_LOG_FIRST = 'the error the log as one request would get';

const RANK_TEXT: Record<ViolationTarget['rank'], string> = {
  first: 'the error this request gets',
  next: 'next, once fixed',
  warning: 'warning: accepted, but risky',
};

const CONFIDENCE_TEXT: ReadonlyMap<string, string> = nameTable({
  V: 'error text captured verbatim',
  'V-doc': 'error text from the provider docs',
  I: 'error text inferred',
  '?': 'error text unconfirmed',
});

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A violation's exact JSON error body with its status line and a Copy button; without clipboard
 * access the button selects the body for Ctrl+C instead.
 */
function ErrorBody({ v, body }: { v: Violation; body: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const asOf = ruleAsOf(v.code);
  const preRef = useRef<HTMLPreElement>(null);
  return (
    <div className="error-body">
      <div className="error-body-head">
        <span>
          HTTP {v.status} · {CONFIDENCE_TEXT.get(v.confidence) ?? v.confidence}
          {asOf !== undefined && (
            <span
              data-testid="error-as-of"
              title="When this text was last seen in a public capture"
            >
              {' '}
              · as of {asOf}
            </span>
          )}
        </span>
        <button
          type="button"
          data-testid="copy-error"
          onClick={() => {
            void copyText(JSON.stringify(v.error)).then((ok) => {
              setCopied(ok ? 'yes' : 'no');
              // No clipboard access (insecure context, denied): select the body for Ctrl+C.
              if (!ok && preRef.current) window.getSelection()?.selectAllChildren(preRef.current);
            });
          }}
        >
          {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Selected: press Ctrl+C' : 'Copy JSON'}
        </button>
      </div>
      <pre ref={preRef} data-testid="error-body">
        {body}
      </pre>
    </div>
  );
}

/**
 * Scroll the side column's own box (`.side-scroll`) so the element shows, and nothing else: on a
 * narrow screen the column is part of the page, and selecting a row in the timeline (a jump, `n`)
 * must not pull the page back up to its violation (`scrollIntoView` scrolls every ancestor).
 */
function scrollIntoColumn(el: HTMLElement): void {
  const box = el.closest<HTMLElement>('.side-scroll');
  if (!box || getComputedStyle(box).overflowY === 'visible') return;
  const b = box.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop += r.top - b.top;
  else if (r.bottom > b.bottom) box.scrollTop += Math.min(r.bottom - b.bottom, r.top - b.top);
}

/** One violation: rank, rule code, title, why, ids, error body or message, and a jump. */
function ViolationItem({
  t,
  current,
  request,
  onJump,
  wholeLog,
}: {
  t: ViolationTarget;
  current: boolean;
  request: RequestRows | null;
  onJump: (m: number) => void;
  wholeLog: boolean;
}) {
  const v = t.violation;
  const liRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (current && liRef.current) scrollIntoColumn(liRef.current);
  }, [current]);
  const body = v.error !== null ? prettyJson(v.error) : null;
  const ids = idListText(v.ids);
  return (
    <li
      ref={liRef}
      className={`violation rank-${t.rank}${current ? ' current' : ''}`}
      aria-current={current ? 'true' : undefined}
      data-testid="violation"
      data-rule={v.rule}
      data-rank={t.rank}
    >
      <div className="violation-head">
        <span className="violation-rank" data-testid="violation-rank">
          {wholeLog && t.rank === 'first' ? WHOLE_LOG_FIRST : RANK_TEXT[t.rank]}
        </span>
        <span
          className="violation-code"
          title={`Rule ${v.code} in the rule catalogue (docs/rules.md); ${CONFIDENCE_TEXT.get(v.confidence) ?? v.confidence}`}
        >
          rule {v.code}
        </span>
      </div>
      <h3 className="violation-title">{v.title}</h3>
      <p className="violation-why">{v.why}</p>
      {ids !== null && (
        <p className="violation-ids">
          ids: <code>{ids}</code>
        </p>
      )}
      {body !== null ? (
        <ErrorBody v={v} body={body} />
      ) : (
        <p className="violation-message">{v.message}</p>
      )}
      <RequestIndexNote
        providerPath={v.providerPath}
        rowLabel={t.pathLabel ?? t.label}
        request={request}
      />
      {t.label !== null && (
        <button type="button" className="jump" data-testid="jump" onClick={() => onJump(t.message)}>
          Jump to message {t.label}
          {v.blockIndex !== null ? `, block ${v.blockIndex}` : ''}
        </button>
      )}
    </li>
  );
}

export function ViolationsPanel({
  validation,
  providerLabel,
  targets,
  request = null,
  currentMessage,
  onJump,
  provisional,
  chosen,
  model,
  wholeLog = false,
  recordedError = null,
}: ViolationsPanelProps) {
  const errors = targets.filter((t) => t.rank !== 'warning').length;
  if (provisional)
    return (
      <aside className="violations" data-testid="violations" aria-label="Violations">
        <h2>Verdict for {providerLabel}</h2>
        <p className="verdict provisional" data-testid="verdict" data-provisional="true">
          Provisional: waiting for the whole of {provisional}. The rows shown are its first messages
          only; a verdict on them would judge a request cut off mid-read (a tool_use whose
          tool_result is not read yet), not the request in the file.
        </p>
      </aside>
    );
  return (
    <aside className="violations" data-testid="violations" aria-label="Violations">
      <h2>Verdict for {providerLabel}</h2>
      {model && <ModelPicker provider={model.provider} transcriptModel={model.transcriptModel} />}
      {wholeLog && (
        <p className="verdict-scope-lead" data-testid="verdict-whole-log-lead">
          No call is chosen: the calls the log sent are judged in the request strip above. Choose
          one to judge it here as the provider got it.
        </p>
      )}
      {wholeLog ? (
        // Subordinate to the calls' verdicts: no call sent this request (newcomer: a red A2 beside
        // "every one passes" read as a contradiction).
        <p
          className={`verdict whole-log ${validation.valid ? 'valid' : 'invalid'}`}
          data-testid="verdict"
          data-valid={validation.valid ? 'true' : 'false'}
          data-scope="whole-log"
        >
          The log as one request (never sent):{' '}
          {validation.valid
            ? `${providerLabel} would accept it.`
            : `${providerLabel} would answer HTTP 400 (${fmtInt(errors)} violation${errors === 1 ? '' : 's'}).`}
        </p>
      ) : validation.valid ? (
        <p className="verdict valid" data-testid="verdict" data-valid="true">
          {recordedError === null
            ? `Valid: ${providerLabel} would accept this request.`
            : `Structure valid: ${providerLabel} would accept these messages; the call still failed (below).`}
        </p>
      ) : (
        <p className="verdict invalid" data-testid="verdict" data-valid="false">
          Invalid: {providerLabel} answers HTTP 400 ({fmtInt(errors)} violation
          {errors === 1 ? '' : 's'}).
        </p>
      )}
      {recordedError !== null && <RecordedError text={recordedError} valid={validation.valid} />}
      {wholeLog && (
        <p className="verdict-scope" data-testid="verdict-whole-log">
          This judges the whole log as one request, which no model call sent as such (rows a
          compaction removed included); the cut dots and the simulator judge that request too.
        </p>
      )}
      {chosen && <ChosenProvider label={providerLabel} chosen={chosen} />}
      {targets.length > 0 && (
        <ol className={`violation-list${wholeLog ? ' whole-log' : ''}`}>
          {targets.map((t, i) => (
            <ViolationItem
              key={`${i}:${t.violation.rule}:${t.violation.index}`}
              t={t}
              current={currentMessage >= 0 && t.message === currentMessage}
              request={request}
              onJump={onJump}
              wholeLog={wholeLog}
            />
          ))}
        </ol>
      )}
      {validation.notes.length > 0 && (
        <ul className="notes">
          {validation.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
    </aside>
  );
}
