import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { parseTranscript } from '../model/parse/index.ts';
import { joinTranscript, unpackMessages } from './pack.ts';
import type { WorkerResponse } from './protocol.ts';
import { resetRun, runRequest } from './run.ts';

describe('a streamed file through the worker loop', () => {
  it('sends the source as UTF-8 bytes (transferred); decoded on the page, raw is the same', async () => {
    resetRun();
    // Non-ASCII text too, so the bytes are not the characters.
    const text = generate({ format: 'claude-code-jsonl', seed: 4, messages: 60 }).replace(
      /"text":"/,
      '"text":"héllo → ',
    );
    const posts: WorkerResponse[] = [];
    await runRequest(
      {
        id: 1,
        req: { text: '', name: 'log.jsonl', format: null, provider: null, file: new Blob([text]) },
        bpe: false,
        fileKey: 1,
      },
      (m, tr = []) => {
        posts.push(structuredClone(m, { transfer: tr }));
      },
    );
    const res = posts.find((m) => m.kind === 'result');
    if (res?.kind !== 'result' || !res.textBytes) throw new Error('no bytes with the answer');
    const bytes = res.textBytes;
    expect(new TextDecoder().decode(bytes)).toBe(text);
    const messages = posts.flatMap((m) =>
      m.kind === 'messages' ? unpackMessages(m.messages) : [],
    );
    const source = {
      get text() {
        return new TextDecoder().decode(bytes);
      },
      name: 'log.jsonl',
      format: null,
      streamed: true,
    };
    const r = joinTranscript(res.result, messages, source, null);
    if (!r.ok) throw new Error('no analysis');
    const direct = parseTranscript(text, { name: 'log.jsonl' });
    if (!direct.ok) throw new Error('does not parse');
    expect(r.analysis.transcript.raw).toEqual(direct.value.transcript.raw);
    expect(r.analysis.transcript.messages).toHaveLength(direct.value.transcript.messages.length);
  });
});
