/** Writes docs/rules.md from the rule catalogue (`npm run rules`). */
import { writeFileSync } from 'node:fs';
import { renderRulesDoc } from '../src/model/validate/catalogue/markdown.ts';

writeFileSync(new URL('../docs/rules.md', import.meta.url), renderRulesDoc());
console.log('docs/rules.md written');
