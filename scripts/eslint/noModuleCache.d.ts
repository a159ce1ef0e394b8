import type { Rule } from 'eslint';

/** The lint rule `cache/no-module-cache` (noModuleCache.js). */
export declare const noModuleCache: Rule.RuleModule;
