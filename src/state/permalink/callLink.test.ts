import { describe, expect, it } from 'vitest';
import { answerDiffJob } from '../../engine/diffProtocol.ts';
import { inspect } from '../../engine/inspect.ts';
import { checkedStructureCopy } from '../../model/redact/shareCopy.ts';
import { lastCallFailsLog, queuedCompactedLog } from '../../model/testing/claudeCodeLog.ts';
import { CHARS_PER_4 } from '../../model/tokens.ts';
import { selectStrip } from '../requests.ts';
import type { StoreApi } from 'zustand';
import { createAppStore, type AppState, type AppStore } from '../store.ts';
import { applyLink } from './applyLink.ts';
import { buildShareLink, type InlineText } from './storeLink.ts';

/** What the page shows of the store's source and request: the verdict and the strip. */
function shown(s: AppState) {
  const requestIndex = s.requestIndex ?? undefined;
  const r = inspect({
    text: s.source.text,
    name: s.source.name,
    format: s.formatOverride,
    provider: s.provider,
    ...(requestIndex !== undefined ? { requestIndex } : {}),
  });
  if (!r.ok) throw new Error(r.error.message);
  const listing = answerDiffJob({
    kind: 'requests',
    text: s.source.text,
    name: s.source.name,
    format: s.formatOverride,
    provider: s.provider,
  });
  const strip = selectStrip(r.parsed.requests, r.parsed.requestIndex, listing);
  const v = r.analysis.validation;
  return {
    parsed: r.parsed,
    analysis: r.analysis,
    verdict: { valid: v.valid, rules: v.violations.map((x) => `${x.rule}@${x.index}`) },
    chosen: strip?.chosen ?? null,
    chosenTone: strip && strip.chosen !== null ? strip.marks.at(strip.chosen)?.tone : null,
    sentence: strip?.sentence ?? null,
  };
}

/** A sender store on `text` (a session log) with call `request` chosen, and what it shows. */
function sendCall(text: string, request: number) {
  const sender = createAppStore();
  sender.getState().openSource({ text, name: 'session.jsonl', origin: 'file' });
  sender.getState().setRequestIndex(request);
  return { sender, seen: shown(sender.getState()) };
}

/**
 * The share link of `copy` (the share panel's copy) made from `sender`, opened in a new reader
 * store: the link's fragment and what the reader shows. Throws when no link can be made.
 */
function openLink(sender: StoreApi<AppStore>, copy: InlineText) {
  const link = buildShareLink(sender.getState(), copy);
  if (!link.ok) throw new Error(link.reason);
  const reader = createAppStore();
  applyLink(reader, `#${link.fragment}`);
  return { fragment: link.fragment, opened: shown(reader.getState()) };
}

describe('the structure-only link of a chosen session call', () => {
  it('opens on that call, chosen, with its 400, under a strip that agrees', () => {
    const { sender, seen } = sendCall(lastCallFailsLog(), 3);
    expect(seen.verdict.valid).toBe(false);
    expect([seen.chosen, seen.chosenTone]).toEqual([3, 'bad']);

    // The share panel: the copy of what is shown (the call's context, with its reply).
    const copy = checkedStructureCopy(
      seen.analysis.transcript,
      CHARS_PER_4,
      'keep',
      seen.parsed.callReply,
    );
    expect(copy.problems).toEqual([]);
    const { fragment, opened } = openLink(sender, {
      text: copy.text,
      redacted: true,
      request: copy.request,
    });
    expect(fragment).toContain('rq=4');
    expect(opened.verdict).toEqual(seen.verdict);
    expect(opened.parsed.requestIndex).toBe(3);
    expect(opened.analysis.transcript.messages).toHaveLength(
      seen.analysis.transcript.messages.length,
    );
    // The strip: the same call chosen, marked failing; nothing says every call passes.
    expect([opened.chosen, opened.chosenTone]).toEqual([3, 'bad']);
    expect(opened.sentence).toBe(seen.sentence);
    expect(opened.sentence).not.toContain('every one passes');
  });

  it('a link made by an older build (the context alone, no rq) still opens: the context whole, as it did', () => {
    const { sender, seen } = sendCall(lastCallFailsLog(), 3);
    const old = checkedStructureCopy(seen.analysis.transcript, CHARS_PER_4, 'keep');
    const { fragment, opened } = openLink(sender, { text: old.text, redacted: true });
    expect(fragment).not.toContain('rq=');
    expect(opened.verdict).toEqual(seen.verdict);
    expect(opened.chosen).toBeNull();
  });

  it('a call whose copy is not detected by itself (the log’s own lines first): the link names its format and opens on the call', () => {
    const { sender, seen } = sendCall(queuedCompactedLog(), 2);
    expect([seen.verdict.valid, seen.chosen, seen.chosenTone]).toEqual([false, 2, 'bad']);
    const copy = checkedStructureCopy(
      seen.analysis.transcript,
      CHARS_PER_4,
      'keep',
      seen.parsed.callReply,
    );
    expect(copy.problems).toEqual([]);
    expect(copy.format).toBe('claude-code-jsonl');
    const { fragment, opened } = openLink(sender, {
      text: copy.text,
      redacted: true,
      request: copy.request,
      format: copy.format,
    });
    expect(fragment).toContain('f=claude-code-jsonl');
    // Before: no format in the link, and the copy read as "not a transcript format I know".
    expect(opened.verdict).toEqual(seen.verdict);
    expect(opened.analysis.transcript.messages).toHaveLength(3);
    expect([opened.chosen, opened.chosenTone]).toEqual([copy.request, 'bad']);
    expect(opened.sentence).not.toContain('every one passes');
  });

  it('keeps the diff against the previous call (d=prev): the copy holds that call, and the reader sees the same diff', () => {
    const { sender, seen } = sendCall(lastCallFailsLog(), 3);
    sender.getState().setDiff({ kind: 'previous' });
    const copy = checkedStructureCopy(
      seen.analysis.transcript,
      CHARS_PER_4,
      'keep',
      seen.parsed.callReply,
    );
    expect(copy.request).toBe(3);
    const { fragment } = openLink(sender, {
      text: copy.text,
      redacted: true,
      request: copy.request,
    });
    expect(fragment).toContain('d=prev');
    const reader = createAppStore();
    applyLink(reader, `#${fragment}`);
    expect(reader.getState().diff).toEqual({ kind: 'previous' });
    // The reader's diff (its call 3 against call 2 of the copy) is the sender's.
    const diffOf = (s: AppState) => {
      const a = answerDiffJob({
        kind: 'request-diff',
        text: s.source.text,
        name: s.source.name,
        format: s.formatOverride,
        provider: s.provider,
        left: null,
        right: s.requestIndex ?? 0,
      });
      if (!a.ok) throw new Error(a.error);
      return { requests: a.requests, summary: a.diff.summary, counts: a.diff.counts };
    };
    const sent = diffOf(sender.getState());
    expect(diffOf(reader.getState())).toEqual(sent);
  });

  it('drops d=prev when the copy holds no earlier call (the first call, or a copy without rq)', () => {
    const { sender, seen } = sendCall(lastCallFailsLog(), 3);
    sender.getState().setDiff({ kind: 'previous' });
    const old = checkedStructureCopy(seen.analysis.transcript, CHARS_PER_4, 'keep');
    expect(openLink(sender, { text: old.text, redacted: true }).fragment).not.toContain('d=');
    expect(openLink(sender, { text: old.text, redacted: true, request: 0 }).fragment).not.toContain(
      'd=',
    );
  });
});
