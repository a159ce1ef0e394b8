/**
 * The rule catalogue as a Markdown page (`docs/rules.md`, written by `npm run rules`; a test fails
 * when the page is stale).
 */
import { RULES } from './index.ts';
import type { RuleSpec } from './types.ts';

const FAMILIES: { title: string; prefix: RegExp; intro: string }[] = [
  {
    title: 'Anthropic Messages (also Claude on Bedrock and Vertex)',
    prefix: /^[AT]\d/,
    intro:
      'Body: `{"type":"error","error":{"type":"invalid_request_error","message":…}}`. Consecutive messages of one role are merged before the checks, so `messages.N` counts merged messages. On Bedrock the text is prefixed with `The model returned the following errors: `.',
  },
  {
    title: 'OpenAI Chat Completions and compatible providers',
    prefix: /^(O|OW|D|Q|M)\d/,
    intro:
      'Body: `{"error":{"message","type":"invalid_request_error","param","code"}}` (DeepSeek, Qwen and Mistral have their own, see each rule). A run of `tool` messages must follow the assistant message whose `tool_calls` it answers.',
  },
  {
    title: 'OpenAI Responses',
    prefix: /^(R|RW)\d/,
    intro:
      'Body: the OpenAI body with `param: "input"`. Items pair by `call_id` anywhere in `input`; the reasoning rules apply to items that carry server ids.',
  },
  {
    title: 'Google Gemini',
    prefix: /^(G|GW)\d/,
    intro:
      'Body: `{"error":{"code":400,"message","status":"INVALID_ARGUMENT"}}`. Gemini checks turn order and part counts, not ids.',
  },
  {
    title: 'AWS Bedrock Converse',
    prefix: /^(B|BW)\d/,
    intro:
      'Body: `{"message":"…"}` (ValidationException). Converse does not merge same-role neighbours.',
  },
];

const PLACEHOLDERS = {
  n: 'N',
  m: 'M',
  id: '<id>',
  ids: ['<id1>', '<id2>'],
  name: '<name>',
  type: '<type>',
  found: '<found>',
  prev: '<prev>',
  position: 'N',
};

/** One table cell: pipes escaped, newlines shown as `\n`. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, '\\n');
}

/** A text in a code span that may itself hold backticks. */
function code(s: string): string {
  const fence = s.includes('`') ? '``' : '`';
  return `${fence}${s.includes('`') ? ` ${s} ` : s}${fence}`;
}

function row(r: RuleSpec): string {
  const text = r.text ? code(cell(r.text(PLACEHOLDERS))) : '(accepted: a warning)';
  const note = r.note ? ` ${r.note}` : '';
  return `| ${r.code} | ${r.severity} | ${r.confidence} | ${cell(r.condition + note)} | ${text} | ${cell(r.path ? `${r.path}. ` : '')}${cell(r.index)} | ${cell(r.source)} | ${r.providers.join(', ')} |`;
}

/** The whole page, deterministic: the same catalogue gives the same bytes. */
export function renderRulesDoc(): string {
  const out: string[] = [
    '# Rule catalogue',
    '',
    'Generated from `src/model/validate/catalogue/` by `npm run rules`; do not edit by hand (a test fails when this page is stale).',
    '',
    'Every rule the validators report: the condition in our words, the provider\u2019s exact text (placeholders `N`, `M`, `<id>`), where the provider says the error is and what its indices count, the public evidence, and how sure we are:',
    '',
    '- **V**: seen verbatim in a public capture of a real response; **V-doc**: the provider\u2019s docs; **I**: inferred from several reports; **?**: unconfirmed.',
    '- **error**: the provider answers HTTP 400 (every rule with a captured 400 is an error); **warning**: accepted, but a reader should know.',
    '',
  ];
  for (const f of FAMILIES) {
    const rows = RULES.filter((r) => f.prefix.test(r.code));
    out.push(`## ${f.title}`, '', f.intro, '');
    out.push(
      '| code | severity | conf. | condition | provider text | where | source | providers |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const r of rows) out.push(row(r));
    out.push('');
  }
  return out.join('\n');
}
