// Types for the rule's JavaScript module (eslint.config.js loads it as plain JS).
import type { Rule } from 'eslint';

export declare const noSpreadThenMembers: Rule.RuleModule;
