/**
 * The catalogue as a whole: what its entries promise, and docs/rules.md as generated. Each rule's
 * fixture is in its family's test beside the rules (anthropic.test.ts, openai.test.ts, …).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from './index.ts';
import { renderRulesDoc } from './markdown.ts';

describe('rule catalogue', () => {
  it('a rule with a captured 400 is an error (warnings are never verbatim captures of a 400)', () => {
    for (const r of RULES)
      if (r.severity === 'warning') expect(r.text === null || r.note !== undefined).toBe(true);
  });
});

describe('docs/rules.md', () => {
  it('is the catalogue as generated (run `npm run rules` after changing a rule)', () => {
    const page = readFileSync(new URL('../../../../docs/rules.md', import.meta.url), 'utf8');
    expect(page).toBe(renderRulesDoc());
  });
});
