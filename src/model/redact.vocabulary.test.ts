/**
 * Redaction by vocabulary (issue 37): a structure-only copy keeps a string or a key only when it
 * is a word of the model's vocabulary; every other one is a placeholder or renamed, whatever key
 * it sits under. The leak check reads every string and key of the copy, with no regular
 * expression over a whole string (an 8 MB hex dump overflowed it), and a copy of a copy is the
 * copy (idempotent). Properties over every format: generated transcripts with random strings put
 * in their fields and keys give a copy that keeps none of them and reopens with the same verdict
 * and counts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse/index.ts';
import { PARSERS } from './parse/registry.ts';
import { leakedStrings } from './redact/contract.ts';
import { foreignStrings } from './redact/foreign.ts';
import { checkedStructureCopy } from './redact/shareCopy.ts';
import { arbTranscript, parsedText } from './testing/index.ts';
import { CHARS_PER_4 } from './tokens.ts';
import type { FormatId, Transcript } from './types.ts';
import { writeTranscript } from './write.ts';

/** The Claude Code lines: values and keys that are data under schema-looking places. */
const SECRETS = {
  email: 'dana.whitfield@acme-payroll.example',
  phone: '+1-415-555-0199',
  awsKey: 'AKIAIOSFODNN7EXAMPLE',
  token: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
};

function claudeCodeLog(): string {
  const base = { sessionId: 's1', cwd: '/home/dana', version: '1.0.83', userType: 'external' };
  return [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: '2025-11-02T10:00:00.000Z',
      message: { role: 'user', content: 'List the files.' },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'u2',
      parentUuid: 'u1',
      timestamp: '2025-11-02T10:00:01.000Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: 'toolu_01A', name: 'Bash', input: { command: 'ls' } }],
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u3',
      parentUuid: 'u2',
      timestamp: '2025-11-02T10:00:02.000Z',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: 'a.txt' }],
      },
      toolUseResult: {
        type: SECRETS.email,
        stdout: 'a.txt',
        [SECRETS.awsKey]: { [SECRETS.token]: 1 },
      },
    },
    {
      ...base,
      type: 'system',
      subtype: SECRETS.phone,
      uuid: 'u4',
      parentUuid: 'u3',
      timestamp: '2025-11-02T10:00:03.000Z',
      content: 'note',
    },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
}

describe('a structure-only copy keeps only its vocabulary', () => {
  it('an email under toolUseResult.type, a phone under subtype, a key id and a token as keys do not survive', () => {
    const t = parsedText(claudeCodeLog()).transcript;
    const copy = checkedStructureCopy(t, CHARS_PER_4);
    expect(copy.problems).toEqual([]);
    for (const s of Object.values(SECRETS)) expect(copy.text).not.toContain(s);
    expect(copy.text).toContain('"toolUseResult"');
  });

  it('the leak check reads every string and key: a copy that kept them is flagged', () => {
    const t = parsedText(claudeCodeLog()).transcript;
    const copy = checkedStructureCopy(t, CHARS_PER_4).text;
    const lines = copy
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    (lines[2] as Record<string, unknown>).toolUseResult = {
      type: SECRETS.email,
      [SECRETS.awsKey]: { [SECRETS.token]: 1 },
    };
    (lines[3] as Record<string, unknown>).subtype = SECRETS.phone;
    const leaks = leakedStrings(
      t,
      lines.map((l) => JSON.stringify(l)).join('\n'),
      new Set(['Bash']),
    );
    for (const s of Object.values(SECRETS)) expect(leaks).toContain(s);
  });

  it('a 6-million-character run of hex digits in a tool result: checked, no stack overflow', () => {
    const hex = '0123456789abcdef'.repeat(375_000);
    const body = JSON.stringify({
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'Dump it.' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'dump', input: {} }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: hex }] },
      ],
    });
    const t = parsedText(body).transcript;
    const copy = checkedStructureCopy(t, CHARS_PER_4);
    expect(copy.problems).toEqual([]);
    expect(copy.text).not.toContain('0123456789abcdef');
    // The copy with the run put back is flagged, not overflowed.
    expect(leakedStrings(t, copy.text.replace('"toolu_1"', `"${hex}"`), new Set())).not.toEqual([]);
  }, 60_000);
});

/** A generated transcript as a file in `format` holds it (written, read back), or null. */
function asFormat(t: Transcript, format: FormatId): string | null {
  const fresh: Transcript = {
    ...t,
    format,
    raw: undefined,
    messages: t.messages.map((m) => ({ ...m, raw: undefined })),
  };
  const text = writeTranscript(fresh);
  return text.trim() === '' ? null : text;
}

/** Random strings put into a document: the n-th objects get a new key, a schema value replaced. */
interface Injection {
  at: number;
  key: string;
  value: string;
  schemaValue: boolean;
}

const SECRET_LIKE = fc.stringMatching(/^[A-Za-z][A-Za-z0-9@._+-]{5,18}[A-Za-z0-9]$/);

const arbInjections = fc.array(
  fc.record({ at: fc.nat(200), key: SECRET_LIKE, value: SECRET_LIKE, schemaValue: fc.boolean() }),
  { minLength: 1, maxLength: 6 },
);

/** The document with the injections made (objects numbered in document order). */
function inject(text: string, injections: readonly Injection[]): string {
  let whole: unknown;
  let isDocument = true;
  try {
    whole = JSON.parse(text);
  } catch {
    isDocument = false;
  }
  const lines = isDocument
    ? [whole]
    : text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as unknown);
  const objects: Record<string, unknown>[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      objects.push(v as Record<string, unknown>);
      Object.values(v).forEach(walk);
    }
  };
  lines.forEach(walk);
  for (const i of injections) {
    const o = objects[i.at % Math.max(1, objects.length)];
    // A schema-looking place (`subtype`) or a new field: either way data, not vocabulary.
    if (o) o[i.schemaValue ? 'subtype' : i.key] = i.value;
  }
  return isDocument ? JSON.stringify(whole) : lines.map((l) => JSON.stringify(l)).join('\n');
}

describe.each(PARSERS.map((p) => p.id))('%s: random strings in fields and keys', (format) => {
  it('the copy keeps none of them, reopens the same (verdict, counts), and a copy of it is itself', () => {
    let checked = 0;
    fc.assert(
      fc.property(arbTranscript('anthropic-messages'), arbInjections, (t, injections) => {
        const written = asFormat(t, format);
        if (written === null) return;
        const text = inject(written, injections);
        const r = parseTranscript(text, { format });
        if (!r.ok) return; // a schema value the format reads was replaced: nothing to share
        const original = r.value.transcript;
        checked++;
        const copy = checkedStructureCopy(original, CHARS_PER_4);
        expect(copy.problems, text).toEqual([]);
        for (const i of injections) {
          expect(copy.text).not.toContain(i.value);
          expect(copy.text).not.toContain(i.key);
        }
        const docs = (() => {
          try {
            return [JSON.parse(copy.text) as unknown];
          } catch {
            return copy.text
              .split('\n')
              .filter((l) => l.trim() !== '')
              .map((l) => JSON.parse(l) as unknown);
          }
        })();
        expect(
          foreignStrings(
            docs,
            new Set(
              original.messages.flatMap((m) =>
                m.blocks.flatMap((b) => (b.type === 'tool_use' ? [b.name] : [])),
              ),
            ),
          ),
        ).toEqual([]);
        // Idempotent: the copy of the copy is safe to share and is the copy.
        const again = parseTranscript(copy.text, { format });
        expect(again.ok).toBe(true);
        if (!again.ok) return;
        const twice = checkedStructureCopy(again.value.transcript, CHARS_PER_4);
        expect(twice.problems).toEqual([]);
        expect(twice.text).toBe(copy.text);
      }),
      { numRuns: 25 },
    );
    // Most bodies still read with the strings put in (a replaced role or type may not).
    expect(checked).toBeGreaterThan(10);
  });
});
