/**
 * The catalogue's Bedrock Converse rules, one fixture each (../../testing/catalogue.ts says what is
 * checked).
 */
import { BEDROCK_RULES } from './bedrock.ts';
import { body, expectFixtures, type Fixture } from '../../testing/catalogue.ts';

const bUser = { role: 'user', content: [{ text: 'q' }] };
const bCall = {
  role: 'assistant',
  content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }],
};

const FIXTURES: Record<string, Fixture> = {
  B1: {
    provider: 'bedrock',
    t: () =>
      body({
        messages: [
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'x' }] } }],
          },
        ],
      }),
    params: { n: 0 },
    path: 'messages.0.content',
  },
  B2: {
    provider: 'bedrock',
    t: () => body({ messages: [bUser, bCall, bUser] }),
    params: { n: 2, ids: ['t1'] },
    path: 'messages.2.content',
  },
  B3: {
    provider: 'bedrock',
    t: () => body({ messages: [{ role: 'assistant', content: [{ text: 'a' }] }, bUser] }),
    params: {},
    path: 'messages.0',
  },
  B4: {
    provider: 'bedrock',
    t: () => body({ messages: [bUser, bUser] }),
    params: {},
    path: 'messages.1',
  },
  B5: {
    provider: 'bedrock',
    t: () =>
      body({
        modelId: 'amazon.nova-pro-v1:0',
        messages: [
          bUser,
          bCall,
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 't1', content: [{ text: 'x' }] } },
              { text: 'and' },
            ],
          },
        ],
      }),
    params: { n: 2 },
    path: 'messages.2.content',
  },
  B6: {
    provider: 'bedrock',
    t: () =>
      body({
        messages: [
          bUser,
          bCall,
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 't1', status: 'error', content: [] } }],
          },
        ],
      }),
    params: { n: 2, m: 0 },
    path: 'messages.2.content.0.toolResult',
  },
  B11: {
    provider: 'bedrock',
    t: () => body({ messages: [bUser, { role: 'assistant', content: [] }, bUser] }),
    params: { n: 1 },
    path: 'messages.1.content',
  },
  B12: {
    provider: 'bedrock',
    // langchain-aws#403: an assistant reply of two newlines, replayed.
    t: () => body({ messages: [bUser, { role: 'assistant', content: [{ text: '\n\n' }] }, bUser] }),
    params: { n: 1, m: 0 },
    path: 'messages.1.content.0.text',
  },
  B7: {
    provider: 'bedrock',
    t: () => ({
      ...body({
        messages: [
          bUser,
          bCall,
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'x' }] } }],
          },
        ],
      }),
      tools: [],
    }),
    params: {},
    path: 'toolConfig',
  },
  B8: {
    provider: 'bedrock',
    t: () =>
      body({
        messages: [
          bUser,
          {
            role: 'assistant',
            content: [
              { toolUse: { toolUseId: 'http_request', name: 'http_request', input: {} } },
              { toolUse: { toolUseId: 'http_request', name: 'http_request', input: {} } },
            ],
          },
        ],
      }),
    params: { n: 1, ids: ['http_request'] },
    path: 'messages.1.content',
  },
  B9: {
    provider: 'bedrock',
    t: () =>
      body({
        messages: [
          bUser,
          bCall,
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 't1', content: [{ text: 'blocked' }] } },
              { toolResult: { toolUseId: 't1', content: [{ text: 'blocked' }] } },
            ],
          },
        ],
      }),
    params: { n: 2, ids: ['t1'] },
    path: 'messages.2.content',
  },
  B10: {
    provider: 'bedrock',
    t: () =>
      body({
        messages: [
          bUser,
          {
            role: 'assistant',
            content: [{ toolUse: { toolUseId: 'mcp.files:read', name: 'f', input: {} } }],
          },
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 'mcp.files:read', content: [{ text: 'ok' }] } }],
          },
        ],
      }),
    params: { n: 1, m: 0, id: 'mcp.files:read', type: 'toolUse', variant: 'pattern' },
    path: 'messages.1.member.content.0.member.toolUse.toolUseId',
  },
  BW1: {
    provider: 'bedrock',
    t: () => body({ modelId: 'amazon.nova-pro-v1:0', messages: [bUser, bCall] }),
    path: null,
  },
};

expectFixtures('Bedrock Converse', BEDROCK_RULES, FIXTURES);
