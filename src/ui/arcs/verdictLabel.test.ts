import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../model/analyze.ts';
import { parsedText } from '../../model/testing/index.ts';
import { selectBrokenPairs } from '../../state/selectors.ts';
import { arcLabel } from './arcLook.ts';
import type { ArcPath } from './arcLayout.ts';
import { pairStateText } from './verdictLabel.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const file = 'broken-bedrock-split-results.json';
const a = analyze(
  parsedText(readFileSync(path.join(repoRoot, 'public/samples', file), 'utf8'), { name: file })
    .transcript,
);
const arc = (id: string): ArcPath => ({
  id,
  status: 'answered',
  broken: false,
  partial: false,
  lane: 0,
  x: 0,
  from: { kind: 'point', y: 0, message: 1 },
  to: { kind: 'point', y: 10, message: 2 },
  d: '',
});

describe('verdict labels', () => {
  it('an answered pair the provider refuses names the provider and its rule', () => {
    const b = selectBrokenPairs(a);
    const label = arcLabel(arc('p1'), a.pairs[1], b);
    expect(label).toMatch(
      /^consumer_status tooluse_Cs44LmPe: answered, but not as AWS Bedrock Converse requires: .+ \(B2\)$/,
    );
    // The sibling the verdict does not name stays plainly answered.
    expect(arcLabel(arc('p0'), a.pairs[0], b)).toBe('queue_depth tooluse_Qd81sVxN: answered');
    // Without the verdict: pairing's words only.
    expect(arcLabel(arc('p1'), a.pairs[1])).toBe('consumer_status tooluse_Cs44LmPe: answered');
  });

  it("a status other than answered keeps pairing's words even when a violation names it", () => {
    const v = selectBrokenPairs(a).violation('p1');
    expect(v).toBeDefined();
    expect(pairStateText('unanswered', v, 'X')).toBe('no tool_result');
  });
});
