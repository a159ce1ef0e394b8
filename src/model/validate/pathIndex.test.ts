import { describe, expect, it } from 'vitest';
import { CHAT_CALL_THEN_USER } from '../testing/shapes.ts';
import { parsedText } from '../testing/index.ts';
import { validateTranscript } from './index.ts';

const read = (v: unknown) => parsedText(JSON.stringify(v)).transcript;

describe('pathIndex: the message a provider’s path names, when it is not the cause’s', () => {
  it('O2 names the message that broke the run: the row after the call, not the call', () => {
    const t = read(CHAT_CALL_THEN_USER);
    const [v] = validateTranscript(t, 'openai-chat').violations;
    expect(v).toMatchObject({ code: 'O2', providerPath: 'messages.[2].role', index: 1 });
    expect(v?.pathIndex).toBe(2);
  });

  it('B2 names the turn after the call; a path naming the cause’s own message sets none', () => {
    const t = read({
      modelId: 'amazon.nova-pro-v1:0',
      messages: [
        { role: 'user', content: [{ text: 'Weather?' }] },
        {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 'tooluse_a', name: 'w', input: {} } }],
        },
        { role: 'user', content: [{ text: 'never mind' }] },
      ],
    });
    const b2 = validateTranscript(t, 'bedrock').violations.find((x) => x.code === 'B2');
    expect(b2).toMatchObject({ providerPath: 'messages.2.content', index: 1, pathIndex: 2 });
    const o1 = validateTranscript(
      read({ model: 'gpt-4o', messages: [{ role: 'tool', tool_call_id: 'c', content: 'x' }] }),
      'openai-chat',
    ).violations[0];
    expect(o1?.code).toBe('O1');
    expect(o1 && 'pathIndex' in o1).toBe(false);
  });
});
