/**
 * Test data for faults.test.ts and the repair tests (repair/*.test.ts): the invoice example
 * (user question → two parallel calls → both results → answer) plus a second exchange with one
 * call, in Anthropic Messages and OpenAI Chat shape. Content invented. Only tests import this file.
 */
import { parseTranscript } from '../parse/index.ts';
import type { Transcript } from '../types.ts';

/** The invoice example plus a second exchange with one call (Anthropic Messages request body). */
export const INVOICE_ANTHROPIC = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: 'You are a billing assistant.',
  tools: [
    { name: 'search_invoices', input_schema: { type: 'object' } },
    { name: 'get_customer', input_schema: { type: 'object' } },
    { name: 'send_reminder', input_schema: { type: 'object' } },
  ],
  messages: [
    { role: 'user', content: 'Which invoices of ACME are overdue?' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Looking up the invoices and the customer.' },
        {
          type: 'tool_use',
          id: 'toolu_inv1',
          name: 'search_invoices',
          input: { customer: 'ACME', status: 'overdue' },
        },
        { type: 'tool_use', id: 'toolu_cus1', name: 'get_customer', input: { name: 'ACME' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_inv1',
          content: '[{"id":"INV-7","due":"2026-10-01"}]',
        },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_cus1',
          content: '{"id":"C-1","email":"ap@acme.test"}',
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'INV-7 is overdue since 1 October.' }] },
    { role: 'user', content: 'Send them a reminder.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_rem1', name: 'send_reminder', input: { invoice: 'INV-7' } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_rem1', content: 'sent' }],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'Reminder sent to ap@acme.test.' }] },
  ],
};

/** The same conversation as an OpenAI Chat Completions body. */
export const INVOICE_OPENAI = {
  model: 'gpt-4o',
  tools: [
    { type: 'function', function: { name: 'search_invoices', parameters: { type: 'object' } } },
    { type: 'function', function: { name: 'get_customer', parameters: { type: 'object' } } },
    { type: 'function', function: { name: 'send_reminder', parameters: { type: 'object' } } },
  ],
  messages: [
    { role: 'system', content: 'You are a billing assistant.' },
    { role: 'user', content: 'Which invoices of ACME are overdue?' },
    {
      role: 'assistant',
      content: 'Looking up the invoices and the customer.',
      tool_calls: [
        {
          id: 'call_inv1',
          type: 'function',
          function: {
            name: 'search_invoices',
            arguments: '{"customer":"ACME","status":"overdue"}',
          },
        },
        {
          id: 'call_cus1',
          type: 'function',
          function: { name: 'get_customer', arguments: '{"name":"ACME"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_inv1', content: '[{"id":"INV-7","due":"2026-10-01"}]' },
    { role: 'tool', tool_call_id: 'call_cus1', content: '{"id":"C-1","email":"ap@acme.test"}' },
    { role: 'assistant', content: 'INV-7 is overdue since 1 October.' },
    { role: 'user', content: 'Send them a reminder.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_rem1',
          type: 'function',
          function: { name: 'send_reminder', arguments: '{"invoice":"INV-7"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_rem1', content: 'sent' },
    { role: 'assistant', content: 'Reminder sent to ap@acme.test.' },
  ],
};

/** Parse a request body; throws on a parse error (tests only). */
export function load(body: unknown): Transcript {
  const r = parseTranscript(JSON.stringify(body));
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}
