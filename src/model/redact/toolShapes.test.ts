/**
 * The structure-only copy keeps each format's tool-definition shape: the same keys at the same
 * depth as the original, down to each schema (whose own properties are the tool's data), so the
 * copy is still a valid body of its API (a Bedrock `inputSchema` keeps its `json` wrapper).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsedText } from '../testing/index.ts';
import { CHARS_PER_4 } from '../tokens.ts';
import type { Transcript } from '../types.ts';
import { checkedStructureCopy } from './shareCopy.ts';

const samples = path.resolve(import.meta.dirname, '../../../public/samples');

/** Top-level keys of the formats we write that hold tool definitions or the tool choice. */
const TOOL_KEYS = ['tools', 'functions', 'toolConfig', 'tool_config', 'tool_choice'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSON Schema (a tool's parameters): an object typed `object`, or one with `properties`. */
const isSchema = (v: unknown): boolean =>
  isObj(v) && ('properties' in v || (typeof v.type === 'string' && /^object$/i.test(v.type)));

/** Every leaf path under `v`, a schema counted as one leaf (its properties are data). */
function paths(v: unknown, at: string, out: string[]): void {
  if (isSchema(v)) out.push(`${at} (schema)`);
  else if (Array.isArray(v)) v.forEach((x, i) => paths(x, `${at}[${i}]`, out));
  else if (isObj(v) && Object.keys(v).length > 0)
    for (const [k, x] of Object.entries(v)) paths(x, `${at}.${k}`, out);
  else out.push(at);
}

/** The tool-definition paths of a body (a Gemini SDK body's `config` holds its tools). */
function toolPaths(body: unknown): string[] {
  const out: string[] = [];
  const scan = (o: unknown, at: string) => {
    if (!isObj(o)) return;
    for (const k of TOOL_KEYS) if (k in o) paths(o[k], `${at}${k}`, out);
  };
  scan(body, '');
  if (isObj(body)) scan(body.config, 'config.');
  return out.sort();
}

/** The tools as read: name, and whether a description and a schema are there. */
const toolsRead = (t: Transcript) =>
  (t.tools ?? []).map((d) => [d.name, d.description !== undefined, d.schema !== undefined]);

function expectSameToolShape(text: string, label: string) {
  const t = parsedText(text).transcript;
  const copy = checkedStructureCopy(t, CHARS_PER_4);
  expect(copy.problems, label).toEqual([]);
  const original = toolPaths(JSON.parse(text));
  expect(original.length, `${label} has tool definitions`).toBeGreaterThan(0);
  expect(toolPaths(JSON.parse(copy.text)), label).toEqual(original);
  expect(toolsRead(parsedText(copy.text).transcript), label).toEqual(toolsRead(t));
  return { t, copy: JSON.parse(copy.text) as Obj };
}

const weather = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' } },
  required: ['city'],
};

/** Bodies of the formats whose tool shapes no sample shows. */
const BODIES: Record<string, unknown> = {
  'openai-chat tools[].function.parameters': {
    model: 'gpt-4o',
    tools: [
      {
        type: 'function',
        function: { name: 'get_weather', description: 'Weather now', parameters: weather },
      },
    ],
    tool_choice: { type: 'function', function: { name: 'get_weather' } },
    messages: [{ role: 'user', content: 'Weather in Lisbon?' }],
  },
  'openai-chat functions[].parameters (legacy)': {
    model: 'gpt-4o',
    functions: [{ name: 'get_weather', description: 'Weather now', parameters: weather }],
    function_call: 'auto',
    messages: [{ role: 'user', content: 'Weather in Lisbon?' }],
  },
  'gemini functionDeclarations[].parametersJsonSchema': {
    model: 'gemini-2.5-flash',
    tools: [
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Weather now', parametersJsonSchema: weather },
        ],
      },
    ],
    toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    contents: [{ role: 'user', parts: [{ text: 'Weather in Lisbon?' }] }],
  },
  'gemini functionDeclarations[].parameters (OpenAPI types)': {
    tools: [
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather now',
            parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } },
          },
        ],
      },
    ],
    contents: [{ role: 'user', parts: [{ text: 'Weather in Lisbon?' }] }],
  },
  'gemini SDK body: config.tools, config.toolConfig': {
    model: 'gemini-2.5-flash',
    contents: [{ role: 'user', parts: [{ text: 'Weather in Lisbon?' }] }],
    config: {
      systemInstruction: 'You answer weather questions for the Lisbon office.',
      temperature: 0.2,
      tools: [
        {
          functionDeclarations: [
            { name: 'get_weather', description: 'Weather now', parametersJsonSchema: weather },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    },
  },
  'openai-responses tools[].parameters, a custom tool with a grammar': {
    model: 'gpt-5',
    tools: [
      { type: 'function', name: 'get_weather', description: 'Weather now', parameters: weather },
      {
        type: 'custom',
        name: 'sql',
        description: 'Run one query',
        format: { type: 'grammar', syntax: 'lark', definition: 'start: "SELECT" NAME' },
      },
    ],
    input: [{ role: 'user', content: 'Weather in Lisbon?' }],
  },
  'bedrock-converse toolConfig.tools[].toolSpec.inputSchema.json': {
    modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
    toolConfig: {
      tools: [
        {
          toolSpec: {
            name: 'get_weather',
            description: 'Weather now',
            inputSchema: { json: weather },
          },
        },
      ],
      toolChoice: { tool: { name: 'get_weather' } },
    },
    messages: [{ role: 'user', content: [{ text: 'Weather in Lisbon?' }] }],
  },
};

describe('structure-only copy: tool definitions keep their shape', () => {
  it('the Bedrock inputSchema keeps its json wrapper (a valid Converse tool spec)', () => {
    const body = BODIES['bedrock-converse toolConfig.tools[].toolSpec.inputSchema.json'];
    const { copy } = expectSameToolShape(JSON.stringify(body), 'bedrock');
    const spec = ((copy.toolConfig as Obj).tools as Obj[])[0]?.toolSpec as Obj;
    expect(spec.inputSchema).toEqual({ json: { type: 'object' } });
    expect(JSON.stringify(copy)).not.toContain('city');
  });

  it('a Gemini schema keeps its root type as written (OBJECT)', () => {
    const body = BODIES['gemini functionDeclarations[].parameters (OpenAPI types)'];
    const { copy } = expectSameToolShape(JSON.stringify(body), 'gemini');
    const decl = ((copy.tools as Obj[])[0]?.functionDeclarations as Obj[])[0];
    expect(decl?.parameters).toEqual({ type: 'OBJECT' });
  });

  it('a Gemini SDK body keeps its config: system instruction, tools, tool config, settings', () => {
    const body = BODIES['gemini SDK body: config.tools, config.toolConfig'];
    const { t, copy } = expectSameToolShape(JSON.stringify(body), 'gemini config');
    expect(t.system).toHaveLength(1);
    const config = copy.config as Obj;
    expect(Object.keys(config)).toEqual([
      'systemInstruction',
      'temperature',
      'tools',
      'toolConfig',
    ]);
    expect(config.temperature).toBe(0.2);
    expect(config.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(JSON.stringify(copy)).not.toContain('Lisbon');
  });

  it('a Responses custom tool keeps its grammar syntax, not its definition', () => {
    const body = BODIES['openai-responses tools[].parameters, a custom tool with a grammar'];
    const { copy } = expectSameToolShape(JSON.stringify(body), 'responses');
    const format = (copy.tools as Obj[])[1]?.format as Obj;
    expect(format.syntax).toBe('lark');
    expect(format.type).toBe('grammar');
    expect(format.definition).not.toContain('SELECT');
  });

  for (const [label, body] of Object.entries(BODIES))
    it(`same tool-definition paths: ${label}`, () => {
      expectSameToolShape(JSON.stringify(body), label);
    });

  it('same tool-definition paths: every sample with tool definitions', () => {
    const formats = new Set<string>();
    for (const f of readdirSync(samples).filter((x) => /\.jsonl?$/.test(x) && x !== 'index.json')) {
      const text = readFileSync(path.join(samples, f), 'utf8');
      const t = parsedText(text).transcript;
      if (!t.tools?.length || f.endsWith('.jsonl')) continue;
      expectSameToolShape(text, f);
      formats.add(t.format);
    }
    expect([...formats].sort()).toEqual([
      'anthropic-messages',
      'bedrock-converse',
      'gemini',
      'openai-responses',
    ]);
  });
});
