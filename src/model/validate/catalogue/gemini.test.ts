/**
 * The catalogue's Gemini rules, one fixture each (../../testing/catalogue.ts says what is checked).
 */
import { GEMINI_RULES } from './gemini.ts';
import { body, expectFixtures, type Fixture } from '../../testing/catalogue.ts';

const gUser = { role: 'user', parts: [{ text: 'q' }] };
const gCall = (id?: string) => ({
  role: 'model',
  parts: [{ functionCall: { name: 'f', args: {}, ...(id ? { id } : {}) } }],
});
const gResp = (id?: string) => ({
  role: 'user',
  parts: [{ functionResponse: { name: 'f', response: {}, ...(id ? { id } : {}) } }],
});

const FIXTURES: Record<string, Fixture> = {
  G1: { provider: 'gemini', t: () => body({ contents: [gUser, gResp()] }), params: {}, path: null },
  G2: {
    provider: 'gemini',
    t: () => body({ contents: [gCall(), gResp()] }),
    params: {},
    path: null,
  },
  G3: {
    provider: 'gemini',
    t: () => body({ contents: [gUser, gCall(), gUser] }),
    params: {},
    path: null,
  },
  G4: {
    provider: 'gemini',
    t: () => body({ model: 'gemini-3-pro', contents: [gUser, gCall(), gResp()] }),
    params: { name: 'f', position: 2 },
    path: null,
  },
  G6: { provider: 'gemini', t: () => body({ contents: [gUser, gUser] }), params: {}, path: null },
  G7: {
    provider: 'gemini',
    t: () => body({ contents: [gUser, { role: 'model', parts: [{ text: 'a' }] }] }),
    params: {},
    path: null,
  },
  G8: {
    provider: 'gemini',
    t: () => body({ contents: [], systemInstruction: { parts: [{ text: 's' }] } }),
    params: {},
    path: 'contents',
  },
  G9: {
    provider: 'gemini',
    t: () => body({ contents: [{ role: 'user', parts: [] }, gUser] }),
    params: { n: 0 },
    path: 'contents[0].parts',
  },
  G10: {
    provider: 'gemini',
    t: () =>
      body({
        contents: [
          gUser,
          gCall(),
          { role: 'user', parts: [{ functionResponse: { name: '', response: {} } }] },
        ],
      }),
    params: { n: 2, m: 0 },
    path: 'contents[2].parts[0].function_response.name',
  },
  G11: {
    provider: 'gemini',
    t: () =>
      body({
        contents: [{ role: 'system', parts: [{ text: 'be nice' }] }, gUser],
      }),
    params: {},
  },
  GW1: {
    provider: 'gemini',
    t: () => body({ contents: [gUser, gCall('a'), gResp('b')] }),
    path: null,
  },
  GW2: {
    provider: 'gemini',
    t: () =>
      body({
        model: 'gemini-2.5-flash',
        input: [
          { type: 'user_input', content: [{ type: 'text', text: 'Ping the database.' }] },
          { type: 'thought', summary: [{ type: 'text', text: 'Use ping.' }], signature: '' },
          { type: 'function_call', id: 'c1', name: 'ping', arguments: {} },
          { type: 'function_result', call_id: 'c1', result: 'pong' },
        ],
      }),
    path: null,
  },
  // Vertex AI's words for G4 (GewoonJaap/gemini-cli-openai#156, warpdotdev/warp#8099).
  VG4: {
    provider: 'vertex-gemini',
    t: () => body({ model: 'gemini-3-pro', contents: [gUser, gCall(), gResp()] }),
    params: { name: 'f', position: 2 },
    path: null,
  },
};

expectFixtures('Gemini', GEMINI_RULES, FIXTURES);
