import type { Rule } from 'eslint';

/** The lint rule `own/no-proto-lookup` (ownKeyLookup.js). */
export declare const noProtoLookup: Rule.RuleModule;
