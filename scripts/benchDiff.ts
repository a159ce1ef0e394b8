/**
 * The diff's cost (issue 33): `diff_vs_check_100k` is the diff of a 100,000-message request and
 * its message-level cut at half its tokens ÷ one `check` of the request (target ≤ 3). Both as
 * the CLI does them from text: `check` parses and analyses the request (pairs, exchanges,
 * validation); `diff A B` parses both files and diffs them (alignment by content: two files
 * share no identity; both sides validated, their tokens counted with chars/4). CPU time of the
 * process, interleaved, median of 5 rounds after a warm-up round.
 * `npm run bench -- --only diff` runs this figure alone.
 */
import { analyze } from '../src/model/analyze.ts';
import { diffTranscripts } from '../src/model/diff/index.ts';
import { prepareEviction, simulatePolicy } from '../src/model/evict/policies.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { countTokens } from '../src/model/tokens.ts';
import type { Transcript } from '../src/model/types.ts';
import { writeTranscript } from '../src/model/write.ts';
import { generate } from './gen.ts';
import { line } from './benchLine.ts';

const MESSAGES = 100_000;
const TARGET = 3;
const ROUNDS = 5;

function parse(text: string): Transcript {
  const r = parseTranscript(text, { name: 'request.json' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

/** CPU milliseconds of `f` (user + system). */
function cpu(f: () => void): number {
  const t0 = process.cpuUsage();
  f();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Prints `diff_vs_check_100k`. */
export function benchDiff(): void {
  const text = generate({ format: 'anthropic-messages', seed: 7, messages: MESSAGES });
  const full = parse(text);
  const table = countTokens(full, 'anthropic');
  const ctx = prepareEviction(full, table, 'anthropic');
  const r = simulatePolicy(ctx, 'message', Math.floor(table.total / 2));
  const cutText = writeTranscript({ ...full, messages: r.kept.map((i) => full.messages[i]!) });
  let rows = 0;
  const check = () => {
    analyze(parse(text));
  };
  const diff = () => {
    rows = diffTranscripts(parse(text), parse(cutText)).rows.length;
  };
  check();
  diff();
  const checks: number[] = [];
  const diffs: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    checks.push(cpu(check));
    diffs.push(cpu(diff));
  }
  const c = median(checks);
  const d = median(diffs);
  line(
    'diff_vs_check_100k',
    d / c,
    '×',
    `diff of ${full.messages.length.toLocaleString('en-US')} messages and a cut of ${r.kept.length.toLocaleString('en-US')} (${rows.toLocaleString('en-US')} rows): ${d.toFixed(0)} ms ÷ check ${c.toFixed(0)} ms, CPU; target ≤ ${TARGET}`,
  );
}
