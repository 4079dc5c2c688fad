/** The built-in ruleset kinds, in one list (src/evaluator/default-kinds.ts registers them). */
import { RulesetKind } from '../ruleset-kinds';
import { PLUGIN_KIND } from './plugin';
import { FORMATTER_KIND } from './formatter-kind';
import { TEMPLATE_FILE_KIND } from './template-file';
import { SIMPLE_PARSER_KIND } from './simple-parser';
import { STATIC_CACHE_KIND } from './static-cache';
import { BRANCH_KIND, LOOP_KIND } from './branch-loop';
import { TIME_WINDOW_KIND } from './time-window';
import { AGE_RANGE_KIND, SIZE_RANGE_KIND } from './file-check';

export const BUILTIN_RULESET_KINDS: readonly RulesetKind[] = [
  PLUGIN_KIND,
  FORMATTER_KIND,
  TEMPLATE_FILE_KIND,
  SIMPLE_PARSER_KIND,
  STATIC_CACHE_KIND,
  BRANCH_KIND,
  LOOP_KIND,
  TIME_WINDOW_KIND,
  AGE_RANGE_KIND,
  SIZE_RANGE_KIND,
];
