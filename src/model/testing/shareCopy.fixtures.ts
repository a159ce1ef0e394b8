/**
 * Request bodies with media and parts of other kinds, one per shape a writer has to write back
 * for a structure-only copy to read back the same (written for this project). Each names the
 * format it is read as; the payloads, names and texts in them must not reach the copy.
 */
import { CHAT_FOREIGN_PART } from './shapes.ts';
import type { FormatId } from '../types.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB';
const anthropic = (messages: unknown[]) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  messages,
});

/** A ChatGPT export node holding one message. */
const node = (id: string, parent: string, role: string, content: unknown) => ({
  id,
  parent,
  children: [] as string[],
  message: { id, author: { role }, content, metadata: {} },
});

/** [what it holds, the body, the format it is read as]. */
export const MEDIA_BODIES: [string, unknown, FormatId][] = [
  [
    'Chat images (a data URL, an address) and a file and audio',
    {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What are these?' },
            {
              type: 'image_url',
              image_url: { url: `data:image/jpeg;base64,${PNG}`, detail: 'high' },
            },
            { type: 'image_url', image_url: { url: 'https://secret.example.com/a.png' } },
            { type: 'input_audio', input_audio: { data: PNG, format: 'wav' } },
            {
              type: 'file',
              file: { file_data: `data:application/pdf;base64,${PNG}`, filename: 'secret.pdf' },
            },
          ],
        },
        { role: 'assistant', content: 'A cat and a dog.' },
      ],
    },
    'openai-chat',
  ],
  ['a Chat part of another API (O12)', CHAT_FOREIGN_PART, 'openai-chat'],
  [
    'a Responses image output of a tool, a stored file and an image address',
    {
      model: 'gpt-4.1',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Take a screenshot and compare.' },
            { type: 'input_file', file_id: 'file-secret1' },
            { type: 'input_image', image_url: 'https://secret.example.com/b.png', detail: 'low' },
          ],
        },
        { type: 'function_call', call_id: 'call_1', name: 'shot', arguments: '{}' },
        {
          type: 'function_call_output',
          call_id: 'call_1',
          output: [
            { type: 'input_text', text: 'here' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
          ],
        },
      ],
    },
    'openai-responses',
  ],
  [
    'a Gemini function response with an image, and code execution parts',
    {
      contents: [
        { role: 'user', parts: [{ text: 'Screenshot, then compute.' }] },
        { role: 'model', parts: [{ functionCall: { name: 'shot', args: {} } }] },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                name: 'shot',
                response: { ok: true },
                parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
              },
            },
          ],
        },
        {
          role: 'model',
          parts: [
            { executableCode: { language: 'PYTHON', code: 'print(1+1)' } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2\n' } },
            { text: 'It is 2.' },
          ],
        },
        { role: 'user', parts: [{ text: 'ok' }] },
      ],
    },
    'gemini',
  ],
  [
    'Bedrock cache points, guarded content, a document in S3 and redacted reasoning',
    {
      modelId: 'anthropic.claude-3-7-sonnet-20250219-v1:0',
      messages: [
        {
          role: 'user',
          content: [
            { text: 'Read this.' },
            {
              document: {
                format: 'pdf',
                name: 'Quarterly report',
                source: { s3Location: { uri: 's3://secret-bucket/a.pdf' } },
              },
            },
            { cachePoint: { type: 'default' } },
            { guardContent: { text: { text: 'guarded secret words' } } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { reasoningContent: { redactedContent: PNG } },
            { reasoningContent: { reasoningText: { text: 'thinking hard', signature: 'sigsig' } } },
            { text: 'Done.' },
          ],
        },
        { role: 'user', content: [{ text: 'ok' }] },
      ],
    },
    'bedrock-converse',
  ],
  [
    'LangChain images (a data URL, an Anthropic-style source)',
    [
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'HumanMessage'],
        kwargs: {
          content: [
            { type: 'text', text: 'What are these?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
      },
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'AIMessage'],
        kwargs: { content: 'Two cats.', tool_calls: [] },
      },
    ],
    'langchain',
  ],
  [
    'an AI SDK tool output with an image',
    [
      { role: 'user', content: 'Take a screenshot.' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'shot', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'shot',
            output: {
              type: 'content',
              value: [
                { type: 'text', text: 'here' },
                { type: 'media', data: PNG, mediaType: 'image/png' },
              ],
            },
          },
        ],
      },
    ],
    'vercel-ai',
  ],
  [
    'Inspect images, audio and video in an eval sample',
    {
      version: 2,
      status: 'success',
      eval: { task: 'vision', model: 'openai/gpt-4o' },
      samples: [
        {
          id: 1,
          epoch: 1,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What is in the secret picture?' },
                { type: 'image', image: `data:image/png;base64,${PNG}` },
                { type: 'audio', audio: PNG, format: 'wav' },
                { type: 'video', video: PNG, format: 'mp4' },
              ],
            },
            { role: 'assistant', content: 'A cat.' },
          ],
        },
      ],
    },
    'inspect-log',
  ],
  [
    'a ChatGPT export message with an image and an audio clip',
    {
      title: 'secret title',
      create_time: 1,
      update_time: 2,
      current_node: 'n3',
      mapping: {
        root: { id: 'root', message: null, parent: null, children: ['n1'] },
        n1: node('n1', 'root', 'user', {
          content_type: 'multimodal_text',
          parts: [
            {
              content_type: 'image_asset_pointer',
              asset_pointer: 'file-service://file-secret',
              size_bytes: 2000,
            },
            { content_type: 'audio_asset_pointer', asset_pointer: 'sediment://file-secret2' },
            'What is in this secret picture?',
          ],
        }),
        n2: node('n2', 'n1', 'assistant', { content_type: 'text', parts: ['A cat.'] }),
        n3: node('n3', 'n2', 'user', { content_type: 'text', parts: ['ok'] }),
      },
    },
    'chatgpt-export',
  ],
  [
    'Gemini Interactions steps with an image, a document by address and an image result',
    {
      id: 'int_1',
      status: 'completed',
      model: 'gemini-3-flash',
      steps: [
        {
          type: 'user_input',
          content: [
            { type: 'text', text: 'What is in this secret image?' },
            { type: 'image', data: PNG, mime_type: 'image/png' },
            {
              type: 'document',
              uri: 'https://secret.example.com/a.pdf',
              mime_type: 'application/pdf',
            },
          ],
        },
        { type: 'function_call', id: 'call_1', name: 'shot', arguments: {} },
        {
          type: 'function_result',
          call_id: 'call_1',
          name: 'shot',
          result: [
            { type: 'text', text: 'here' },
            { type: 'image', data: PNG, mime_type: 'image/png' },
          ],
        },
        { type: 'model_output', content: [{ type: 'text', text: 'A cat.' }] },
      ],
    },
    'gemini-interactions',
  ],
  [
    'a claude.ai export message with an attachment and an uploaded image',
    [
      {
        uuid: 'c1',
        name: 'secret chat',
        created_at: '2026-07-04T05:36:40Z',
        chat_messages: [
          {
            uuid: 'h1',
            sender: 'human',
            text: 'look at the secret',
            content: [{ type: 'text', text: 'look at the secret' }],
            attachments: [
              {
                file_name: 'secret.csv',
                file_type: 'text/csv',
                file_size: 1200,
                extracted_content: '',
              },
            ],
            files: [{ file_kind: 'image', file_name: 'secret.png', file_uuid: 'f1' }],
          },
          {
            uuid: 'a1',
            sender: 'assistant',
            text: 'A cat.',
            content: [{ type: 'text', text: 'A cat.' }],
            attachments: [],
            files: [],
          },
        ],
      },
    ],
    'claude-ai-export',
  ],
  [
    'Anthropic media by address and as text, and redacted thinking',
    anthropic([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url: 'https://secret.example.com/a.png' } },
          {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: 'The secret is green.' },
            title: 'Quarterly notes',
          },
          { type: 'text', text: 'What colour?' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
          { type: 'text', text: 'Green.' },
        ],
      },
      { role: 'user', content: 'ok' },
    ]),
    'anthropic-messages',
  ],
];
