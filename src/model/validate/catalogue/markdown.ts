/**
 * The rule catalogue as a Markdown page (`docs/rules.md`, written by `npm run rules`; a test fails
 * when the page is stale).
 */
import { APIS, ENDPOINT_LIST } from '../endpoints/index.ts';
import type { Endpoint } from '../endpoints/types.ts';
import { RULES } from './index.ts';
import { CATALOGUE_AS_OF, type RuleSpec } from './types.ts';

const FAMILIES: { title: string; prefix: RegExp; intro: string }[] = [
  {
    title: 'Anthropic Messages (also Claude on Bedrock and Vertex)',
    prefix: /^([AT]|DA)\d/,
    intro:
      'Body: `{"type":"error","error":{"type":"invalid_request_error","message":…}}`. Consecutive messages of one role are merged before the checks, so `messages.N` counts merged messages. On Bedrock the text is prefixed with `The model returned the following errors: `.',
  },
  {
    title: 'OpenAI Chat Completions and compatible providers',
    prefix: /^(O|OW|D|Q|M|AZ|K)\d/,
    intro:
      'Body: `{"error":{"message","type":"invalid_request_error","param","code"}}` (DeepSeek, Qwen and Mistral have their own, see each rule). A run of `tool` messages must follow the assistant message whose `tool_calls` it answers.',
  },
  {
    title: 'OpenAI Responses',
    prefix: /^(R|RW|DR)\d/,
    intro:
      'Body: the OpenAI body with `param: "input"`. Items pair by `call_id` anywhere in `input`; the reasoning rules apply to items that carry server ids.',
  },
  {
    title: 'Google Gemini',
    prefix: /^(G|GW|VG)\d/,
    intro:
      'Body: `{"error":{"code":400,"message","status":"INVALID_ARGUMENT"}}`. Gemini checks turn order and part counts, not ids.',
  },
  {
    title:
      'Compaction inputs (Anthropic compaction and context editing, Responses compaction items)',
    prefix: /^(AC|RC)\d/,
    intro:
      'Bodies carrying a `compaction` block or item, cleared tool results or `context_management` are valid. No public capture gives a 400 for a misplaced or emptied compaction, so these are warnings: where the block or item sits, whether it was emptied, what the provider ignores before it. A T1/T2 check reads past a compaction block that opens an assistant turn.',
  },
  {
    title: 'Context window (every endpoint)',
    prefix: /^CW\d/,
    intro:
      'A request whose input is longer than its model’s context window is refused whatever its structure: OpenAI O14, Anthropic A21 and Gemini G12 give each provider’s text, listed with their families above. The window is the one of `src/model/validate/endpoints/windows.ts` whose `match` fits the request’s model (an unknown model is not judged); an exact count (OpenAI) decides at the window, an estimate only beyond its margin. Where the count cannot decide, or the endpoint’s answer is not captured, this warning says so.',
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
  tokens: '<tokens>',
  limit: '<window>',
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
  return `| ${r.code} | ${r.severity} | ${r.confidence} | ${cell(r.condition + note)} | ${text} | ${cell(r.path ? `${r.path}. ` : '')}${cell(r.index)} | ${cell(r.source)} | ${r.asOf ?? CATALOGUE_AS_OF} | ${r.providers.join(', ')} |`;
}

/** The codes the catalogue lists for an endpoint alone (its own texts). */
function ownCodes(e: Endpoint): string {
  const codes = RULES.filter((r) => r.providers.length === 1 && r.providers[0] === e.id).map(
    (r) => r.code,
  );
  return codes.length > 0 ? codes.join(', ') : '—';
}

function endpointRow(e: Endpoint): string {
  const hosts = e.hosts.length > 0 ? e.hosts.map((h) => `\`${h.source}\``).join(' ') : 'any';
  const paths = e.paths.map((p) => `\`${p.source}\``).join(' ');
  const rules =
    e.evidenced === 'all'
      ? 'all of the API’s (passed through)'
      : 'its own; the others are the API’s rule and wording';
  return `| ${e.id} | ${cell(e.label)} | ${APIS[e.api].label} | ${e.base ?? '—'} | ${cell(hosts)} | ${cell(paths)} | ${cell(e.pathStyle)} | ${ownCodes(e)} | ${rules} | ${cell(e.evidence)} | ${e.asOf} |`;
}

/** The endpoints section: which endpoint speaks which API, where it answers, what it words itself. */
function endpointsSection(): string[] {
  return [
    '## Endpoints',
    '',
    'One registry (`src/model/validate/endpoints/`, one file per endpoint): an API’s rules plus the endpoint’s dialect. An input names its endpoint by its URL (curl, HAR), an OTel span’s `server.address`, or a Bedrock or Vertex model id; else `--provider` (ids or aliases) or the page’s picker chooses. Where an endpoint’s own answer to a rule is not captured, the verdict says it is the API’s rule and wording.',
    '',
    '| id | endpoint | API | base | hosts | paths | where errors point | own texts | rules evidenced | evidence | as of |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...ENDPOINT_LIST.map(endpointRow),
    '',
  ];
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
    `- **as of**: the month the text is known current as of (its latest dated capture; ${CATALOGUE_AS_OF} for the rules of the first research pass, which read reports from 2023 to then).`,
    '',
    ...endpointsSection(),
  ];
  for (const f of FAMILIES) {
    const rows = RULES.filter((r) => f.prefix.test(r.code));
    out.push(`## ${f.title}`, '', f.intro, '');
    out.push(
      '| code | severity | conf. | condition | provider text | where | source | as of | providers |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const r of rows) out.push(row(r));
    out.push('');
  }
  return out.join('\n');
}
