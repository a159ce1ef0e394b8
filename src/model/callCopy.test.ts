import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callOfCopy, withCallReply } from './callCopy.ts';
import { listFileRequests, requestJudge } from './diff/index.ts';
import { parseTranscript, readSource, type ParsedTranscript } from './parse/index.ts';
import { checkedStructureCopy } from './redact/shareCopy.ts';
import { withSessionCall } from './sessionCall.ts';
import { compactedThreeCallLog, lastCallFailsLog } from './testing/claudeCodeLog.ts';
import { CHARS_PER_4 } from './tokens.ts';
import { validateTranscript } from './validate/index.ts';
import { writeTranscript } from './write.ts';

/** `text` opened as the page opens it: parsed, then narrowed to session call `k` when given. */
function open(text: string, k: number | undefined, name = ''): ParsedTranscript {
  const parsed = parseTranscript(text, name ? { name } : {});
  const doc = readSource(text, name);
  if (!parsed.ok || !doc.ok) throw new Error('unreadable');
  return withSessionCall(doc.value, parsed.value, k);
}

/** A verdict as the page shows it: valid, and each violation's rule and message. */
function verdict(p: ParsedTranscript) {
  const v = validateTranscript(p.transcript);
  return { valid: v.valid, rules: v.violations.map((x) => `${x.rule}@${x.index}`) };
}

/** The strip's verdict of each request of `text` ('ok' / the first rule's code). */
function stripOf(text: string): string[] {
  const listing = listFileRequests(text);
  if (!listing.ok) throw new Error(listing.error.message);
  const judge = requestJudge(listing.value);
  return listing.value.requests.map((_, k) => judge.verdict(k).firstRule?.code ?? 'ok');
}

const sample = (f: string) => readFileSync(`public/samples/${f}`, 'utf8');

describe('the structure-only copy of a chosen session call (callCopy.ts)', () => {
  it('holds the chosen failing call with its reply, and opened on `request` shows that call, its 400 and a strip that agrees', () => {
    const log = lastCallFailsLog();
    expect(stripOf(log)).toEqual(['ok', 'ok', 'ok', 'A2']);
    const chosen = open(log, 3, 'session.jsonl');
    expect(chosen.callReply?.index).toBe(chosen.transcript.messages.length);
    const copy = checkedStructureCopy(chosen.transcript, CHARS_PER_4, 'keep', chosen.callReply);
    expect(copy.problems).toEqual([]);
    // The copy's calls: the three before it, then the call shared (its reply holds it).
    expect(copy.request).toBe(3);
    expect(stripOf(copy.text)).toEqual(['ok', 'ok', 'ok', 'A2']);
    expect(copy.text).not.toContain('dashboard query');
    const opened = open(copy.text, copy.request ?? undefined);
    expect(opened.requestIndex).toBe(3);
    expect(opened.transcript.messages).toHaveLength(chosen.transcript.messages.length);
    expect(verdict(opened)).toEqual(verdict(chosen));
    expect(verdict(opened).valid).toBe(false);
  });

  it('every call of the sample logs: the copy opens on a call with the verdict and messages of the call chosen', () => {
    const logs = {
      'claude-code-session.jsonl': sample('claude-code-session.jsonl'),
      'codex-rollout.jsonl': sample('codex-rollout.jsonl'),
      'session.jsonl': lastCallFailsLog(),
    };
    for (const [name, log] of Object.entries(logs)) {
      const calls = stripOf(log).length;
      for (let k = 0; k < calls; k++) {
        const chosen = open(log, k, name);
        const copy = checkedStructureCopy(chosen.transcript, CHARS_PER_4, 'hide', chosen.callReply);
        expect(copy.problems, `${name} call ${k + 1}`).toEqual([]);
        // The first call's context holds no earlier reply: its copy is one call, opened whole.
        if (k === 0) expect(copy.request, name).toBeNull();
        else expect(copy.request, `${name} call ${k + 1}`).not.toBeNull();
        const opened = open(copy.text, copy.request ?? undefined);
        expect(opened.transcript.messages.length, `${name} call ${k + 1}`).toBe(
          chosen.transcript.messages.length,
        );
        expect(verdict(opened), `${name} call ${k + 1}`).toEqual(verdict(chosen));
        if (copy.request !== null) expect(opened.requestIndex).toBe(copy.request);
      }
    }
  });

  it('holds no line written after the call: a later compaction is not in the copy of an earlier call', () => {
    const log = compactedThreeCallLog();
    expect(log).toContain('compact_boundary');
    const chosen = open(log, 1, 'session.jsonl');
    const copy = checkedStructureCopy(chosen.transcript, CHARS_PER_4, 'keep', chosen.callReply);
    expect(copy.problems).toEqual([]);
    expect(copy.text).not.toContain('compact_boundary');
    expect(copy.text).not.toContain('isCompactSummary');
    // Its last line is the reply's: nothing of the log after the call.
    const last = JSON.parse(copy.text.trim().split('\n').at(-1) as string) as { type: string };
    expect(last.type).toBe('assistant');
    const opened = open(copy.text, copy.request ?? undefined);
    expect(opened.requestIndex).toBe(1);
    expect(verdict(opened)).toEqual(verdict(chosen));
  });

  it('callOfCopy: null for a text that is no session log of two calls holding that call', () => {
    const chosen = open(lastCallFailsLog(), 3, 'session.jsonl');
    const t = chosen.transcript;
    const reply = chosen.callReply;
    if (!reply) throw new Error('no reply');
    const n = t.messages.length;
    const withReply = writeTranscript(withCallReply(t, reply));
    expect(callOfCopy(withReply, t.format, n)?.index).toBe(3);
    // The context alone (what a copy was before): its calls are the earlier ones only.
    expect(callOfCopy(writeTranscript(t), t.format, n)).toBeNull();
    expect(callOfCopy(withReply, t.format, n - 1)).toBeNull();
    expect(callOfCopy('not json', t.format, n)).toBeNull();
    expect(callOfCopy('[{"role":"user","content":"hi"}]', 'openai-chat', 1)).toBeNull();
  });

  it('a request that is no session call copies as before: no reply, no request', () => {
    const parsed = parseTranscript(sample('invoice.json'));
    if (!parsed.ok) throw new Error('unreadable');
    expect(parsed.value.callReply).toBeUndefined();
    const copy = checkedStructureCopy(parsed.value.transcript, CHARS_PER_4);
    expect(copy.problems).toEqual([]);
    expect(copy.request).toBeNull();
  });
});
