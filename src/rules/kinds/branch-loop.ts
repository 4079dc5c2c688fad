/**
 * Branch and Loop rulesets (docs/evaluator/rules.md, the original's multi-rule kinds). The ruleset's own
 * pattern groups are matched first, then:
 *  - Branch: the referenced rulesets are tried in order (filter only); the first that matches is
 *    applied exactly as if the message had named it (all kinds, including time-window and file
 *    checks, which the original skipped); none matching gives FAILURE.
 *  - Loop: every referenced ruleset whose filter matches is applied in order, the body re-read for
 *    each; the first failure stops the loop with EXCEPTION; otherwise SUCCESS, even when nothing
 *    matched (as in the original). Every kind works inside a loop (the original ran only a few,
 *    skipped TemplateFile and crashed on XSLT and XPath maps).
 * Deliberate fixes: references to unknown rulesets, non-string entries and nested Branch/Loop are
 * rejected at start-up (the original skipped them silently).
 */
import { Message } from '../../message/message';
import { RuleConfigError } from '../errors';
import { KIND_PRECEDENCE, RuleHandle, RulesetKindContext, RulesetKind } from '../ruleset-kinds';

function handles(ruleset: Readonly<Record<string, unknown>>, key: 'Branch' | 'Loop', ctx: RulesetKindContext): RuleHandle[] {
  const list = ruleset[key] as unknown[];
  if (list.length === 0) throw new RuleConfigError(ctx.where(key), 'is empty', 'a list of ruleset names');
  return list.map((name, k) => {
    if (typeof name !== 'string') throw new RuleConfigError(ctx.where(`${key}[${k}]`), `${JSON.stringify(name)} is not a ruleset name`, 'a string');
    return ctx.ruleset(name, `${key}[${k}]`);
  });
}

function bodyFor(h: RuleHandle, msg: Message): string | undefined {
  return h.needsBody ? msg.bodyText() : undefined;
}

export const BRANCH_KIND: RulesetKind = {
  name: 'branch',
  precedence: KIND_PRECEDENCE.branch,
  keys: ['Branch'],
  composite: true,
  detect: (r) => Array.isArray(r.Branch),
  compile(ruleset, ctx) {
    const targets = handles(ruleset, 'Branch', ctx);
    return (msg) => {
      for (const h of targets) {
        const body = bodyFor(h, msg);
        if (!h.matches(msg, body)) continue;
        const label = `${ctx.rulesetName}:${h.name}`;
        const r = h.apply(msg, body);
        if (typeof r === 'number') {
          h.display(msg, label);
          return r;
        }
        return r.then((v) => {
          h.display(msg, label);
          return v;
        });
      }
      return 1;
    };
  },
};

export const LOOP_KIND: RulesetKind = {
  name: 'loop',
  precedence: KIND_PRECEDENCE.loop,
  keys: ['Loop'],
  composite: true,
  detect: (r) => Array.isArray(r.Loop),
  compile(ruleset, ctx) {
    const targets = handles(ruleset, 'Loop', ctx);
    const run = (msg: Message, from: number): number | Promise<number> => {
      for (let i = from; i < targets.length; i++) {
        const h = targets[i];
        const body = bodyFor(h, msg);
        if (!h.matches(msg, body)) continue;
        const label = `${ctx.rulesetName}:${h.name}`;
        const r = h.apply(msg, body);
        if (typeof r !== 'number') {
          return r.then((v) => {
            if (v === -1) return -1;
            if (v === 0) h.display(msg, label);
            return run(msg, i + 1);
          });
        }
        if (r === -1) return -1;
        if (r === 0) h.display(msg, label);
      }
      return 0;
    };
    return (msg) => run(msg, 0);
  },
};
