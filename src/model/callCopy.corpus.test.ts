/**
 * Corpus suite: the structure-only link of a chosen call of every real session log (`real/`).
 * Each call's copy (its context with its reply's first message, callCopy.ts) keeps the contract,
 * and opened as a link opens it (the call it names, `request`; the format it names, `format`)
 * shows that call: the same messages and verdict. Up to 24 calls per log, spread over it (the
 * first and last included). Test input only: nothing from these files is copied here.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReal, realFiles } from '../testing/corpus.ts';
import { listFileRequests } from './diff/index.ts';
import { parseTranscript, readSource, type ParsedTranscript } from './parse/index.ts';
import { checkedStructureCopy } from './redact/shareCopy.ts';
import { withSessionCall } from './sessionCall.ts';
import { CHARS_PER_4 } from './tokens.ts';
import type { FormatId } from './types.ts';
import { validateTranscript } from './validate/index.ts';

/** `text` opened as the page opens it (format forced when given), narrowed to call `k`. */
function open(text: string, k: number | undefined, name: string, format?: FormatId | null) {
  const opts = { ...(name ? { name } : {}), ...(format ? { format } : {}) };
  const parsed = parseTranscript(text, opts);
  const doc = readSource(text, name);
  if (!parsed.ok || !doc.ok) throw new Error(parsed.ok ? 'unreadable' : parsed.error.message);
  return withSessionCall(doc.value, parsed.value, k);
}

function verdict(p: ParsedTranscript) {
  const v = validateTranscript(p.transcript);
  return { valid: v.valid, rules: v.violations.map((x) => `${x.rule}@${x.index}`) };
}

const logs = realFiles().flatMap((file) => {
  const text = readReal(file);
  const name = path.basename(file);
  const listing = listFileRequests(text, { name });
  return listing.ok && listing.value.kind === 'session' && listing.value.requests.length > 1
    ? [{ file, text, name, calls: listing.value.requests.length }]
    : [];
});

describe('the structure-only link of each chosen call of the real session logs', () => {
  it('there are such logs', () => {
    expect(logs.length).toBeGreaterThan(3);
  });
  for (const log of logs)
    it(`${log.file}: each call's link opens on that call with its verdict`, () => {
      const step = Math.max(1, Math.ceil(log.calls / 24));
      const ks = new Set([...Array(log.calls).keys()].filter((k) => k % step === 0));
      ks.add(log.calls - 1);
      for (const k of ks) {
        const chosen = open(log.text, k, log.name);
        const label = `${log.file} call ${k + 1}`;
        const copy = checkedStructureCopy(chosen.transcript, CHARS_PER_4, 'keep', chosen.callReply);
        expect(copy.problems, label).toEqual([]);
        const opened = open(copy.text, copy.request ?? undefined, '', copy.format);
        if (copy.request !== null) expect(opened.requestIndex, label).toBe(copy.request);
        expect(opened.transcript.messages.length, label).toBe(chosen.transcript.messages.length);
        expect(verdict(opened), label).toEqual(verdict(chosen));
      }
    });
});
