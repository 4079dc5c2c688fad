/**
 * CollectNode (the original's org.qbroker.node.CollectNode, operation `collect`): sends each message to a
 * collectible outlink (typically a MessageEvaluator), waits for it to come back, and routes the same
 * (now transformed) message onward by its return code: done, failure, or the next collectible of the
 * ruleset's task list. Configuration and routing rules: collect-node-config.ts.
 *
 * A message stays TAKEN in the node's input from arrival until the last outlink's consumer removes it;
 * only then is it removed from the input, so an XAMode 1 receiver acknowledges the broker after the final
 * persister is done. A full outlink makes the message wait in the node (the input stays taken), so back
 * pressure reaches the receiver on every hop. A bounced message holds no cell of the collectible it came
 * from, so chains of collectibles cannot deadlock on each other (the original needed a "walk-sweep").
 *
 * Restart: the runtime puts every input message back; untaken copies in the outlinks are withdrawn on
 * stop; a message a consumer still holds comes back to a dead incarnation and is ignored (at-least-once).
 */
import { ActorContext, Behaviour, describe as describeError } from '../../src/runtime/actor';
import { ComponentDefinition, ComponentEnv, inputOf } from '../../src/runtime/component';
import { Message } from '../../src/message/message';
import { Outcome, Taken, XQueue } from '../../src/xqueue/xqueue';
import { parsePartition } from '../../src/xqueue/partition';
import { displayMessage } from '../../src/logging/display';
import { traceIdOf } from '../../src/runtime/message-trace';
import { debugEnabled } from '../../src/logging/logger';
import { ATTR_RULESET, traceRoute, tracesMessage } from '../../src/tracing/message-trace';
import { OutlinkSender, SenderDone } from './outlink-sender';
import { Inbox } from './inbox';
import { rulesetMatcher } from './ruleset-matcher';
import { COLLECT_NODE_SCHEMA } from './collect-node-schema';
import {
  CollectNodeSettings,
  CollectRuleset,
  DONE_OUTLINK,
  FAILURE_OUTLINK,
  FIRST_COLLECTIBLE,
  NOHIT_OUTLINK,
  parseCollectNodeSettings,
  returnCode,
} from './collect-node-config';

type Request = Taken<Message>;

/**
 * One input message on its way through the node. It is in one outlink at a time, so the entry itself records
 * where it was sent and, once that outlink's consumer removed it, with which outcome: the return that waits in
 * the inbox is the entry (nothing is allocated per hop; issue 32).
 */
interface Entry {
  readonly request: Request;
  readonly rid: number;
  /** Index of the task that decides the next hop when the message comes back. */
  task: number;
  /** The outlink position it was last sent to. */
  outlink: number;
  /** How that outlink's consumer removed it (read when the entry comes back). */
  outcome: Outcome;
}

function newEntry(request: Request, rid: number): Entry {
  return { request, rid, task: 0, outlink: NOHIT_OUTLINK, outcome: 'done' };
}

/** Where a bounced message goes next, and which task takes over (the original's collect()). */
export interface Hop {
  readonly outlink: number;
  /** The task whose format applies (collectible) or whose ErrorCode applies (exit): 0 = the ruleset's own. */
  readonly task: number;
  /** The return code after branch handling: a failure the task list absorbs counts as SUCCESS. */
  readonly rc: number;
}

/**
 * Routing after a bounce. `task` is the task the message is at; rc 0 is SUCCESS, > 0 FAILURE, < 0 EXCEPTION.
 * A failure routed to a collectible other than the task's Success outlink jumps to the branch that
 * starts there (the task right after an exit task whose Success is that collectible); with no such
 * branch the message goes to nohit.
 */
export function nextHop(rs: CollectRuleset, task: number, rc: number, warn: (text: string) => void): Hop {
  const tasks = rs.tasks;
  let outlink: number;
  if (task < tasks.length) outlink = rc === 0 ? tasks[task].success : rc > 0 ? tasks[task].failure : tasks[task].exception;
  else outlink = rc === 0 ? DONE_OUTLINK : FAILURE_OUTLINK;
  if (rc === 0 || outlink < FIRST_COLLECTIBLE) return { outlink, task, rc };
  if (outlink === tasks[task].success) return { outlink, task, rc: 0 }; // the task ignores failures
  for (let i = task; i < tasks.length - 1; i++) {
    if (tasks[i].success < FIRST_COLLECTIBLE && tasks[i + 1].success === outlink) return { outlink, task: i + 1, rc: 0 };
  }
  warn(`ruleset ${rs.name}: no branch starts with outlink #${outlink} after task ${task} (rc ${rc}); the message goes to nohit`);
  return { outlink: NOHIT_OUTLINK, task, rc };
}

class CollectNodeBehaviour implements Behaviour<never> {
  private readonly token = {};
  private readonly inbox = new Inbox<Entry>();
  /** Every outlink's messages come back here, keyed by their entry. */
  private readonly returned: SenderDone<Entry> = (entry, _item, outcome) => {
    entry.outcome = outcome;
    this.inbox.push(entry);
  };
  private readonly stopSignal = new AbortController();
  private readonly input: XQueue<Message>;
  /** One sender per outlink position; fixed outlinks that name the same link share one. */
  private senders: OutlinkSender<Entry>[] = [];
  private readonly match: (msg: Message) => number;
  /** Debug lines (the ruleset matched, the outlink chosen) are built only when the log writes them. */
  private readonly debug: boolean;

  constructor(
    private readonly env: ComponentEnv,
    private readonly settings: CollectNodeSettings,
  ) {
    this.input = inputOf(env);
    this.debug = debugEnabled(env.logger);
    // As in the original, a message whose filter evaluation fails goes to the failure outlink (-1).
    this.match = rulesetMatcher(
      settings.rulesets,
      (ruleset, error) => env.logger.error('ruleset filter failed; message goes to the failure outlink', { ruleset, error: describeError(error) }),
      -1,
    );
  }

  start(ctx: ActorContext<never>): void {
    const env = this.env;
    const s = this.settings;
    if (env.outlinks.length !== s.outlinkNames.length)
      throw new Error(`${env.name}: ${s.outlinkNames.length} OutLink entries configured but ${env.outlinks.length} links given`);
    const byQueue = new Map<XQueue<Message>, OutlinkSender<Entry>>();
    this.senders = env.outlinks.map((q, i) => {
      let sender = byQueue.get(q);
      if (sender === undefined) {
        sender = new OutlinkSender<Entry>(q, parsePartition(s.outlinkPartitions[i], q.capacity, q.name), this.stopSignal.signal, (e) => ctx.fail(e));
        byQueue.set(q, sender);
      }
      return sender;
    });
    // Returns wait in the inbox, which wakes the actor once until it takes them (inbox.ts); the wake runs as an
    // XQueue pull does, on the fast path when the node is idle (ActorContext.waker; issue 32).
    this.inbox.attach(
      this.token,
      ctx.waker(() => this.takeReturns()),
    );
    ctx.consume(this.input, (taken) => this.onMessage(taken));
  }

  /** Every return that arrived since the last turn, in order of arrival. */
  private takeReturns(): void {
    for (const entry of this.inbox.take(this.token)) {
      if (entry.outlink < FIRST_COLLECTIBLE) this.finished(entry, entry.outcome);
      else this.collected(entry, entry.outcome);
    }
  }

  stop(): void {
    this.stopSignal.abort();
    for (const sender of new Set(this.senders)) sender.close();
  }

  private onMessage(request: Request): void {
    this.env.status.count('received');
    const rid = this.match(request.item);
    if (this.debug)
      this.env.logger.debug('ruleset matched', { id: traceIdOf(request.item), ruleset: rid < 0 ? '(filter failed)' : this.settings.rulesets[rid].name });
    if (rid < 0) {
      this.exit(newEntry(request, 0), FAILURE_OUTLINK, -1);
      return;
    }
    const rs = this.settings.rulesets[rid];
    const entry = newEntry(request, rid);
    if (rs.preferred < FIRST_COLLECTIBLE) {
      this.exit(entry, rs.preferred, undefined);
      return;
    }
    this.format(entry, rs.format);
    this.sendToCollectible(entry, rs.preferred);
  }

  private collected(entry: Entry, outcome: Outcome): void {
    const env = this.env;
    env.status.count('collected');
    const msg = entry.request.item;
    // A message its collectible gave up on (removed as failed) counts as an EXCEPTION.
    const rc = outcome === 'failed' ? -1 : returnCode(msg, this.settings.rcField);
    const rs = this.settings.rulesets[entry.rid];
    const hop = nextHop(rs, entry.task, rc, (text) => env.logger.warn(text));
    if (hop.outlink < FIRST_COLLECTIBLE) {
      entry.task = hop.task;
      this.exit(entry, hop.outlink, hop.rc);
      return;
    }
    const task = rs.tasks[hop.task];
    if (hop.rc === 0 && task !== undefined) this.format(entry, task.format);
    entry.task = hop.task + 1;
    this.sendToCollectible(entry, hop.outlink);
  }

  /** Leaves through a fixed outlink; the input message is removed when that outlink's consumer is done. */
  private exit(entry: Entry, outlink: number, rc: number | undefined): void {
    const env = this.env;
    const s = this.settings;
    const rs = s.rulesets[entry.rid];
    const msg = entry.request.item;
    if (rc !== undefined) {
      if (outlink === DONE_OUTLINK) msg.deleteProperty(s.rcField);
      else {
        const errorCode = entry.task === 0 ? rs.errorCode : rs.tasks[entry.task - 1]?.errorCode;
        if (errorCode !== undefined) msg.setProperty(s.rcField, errorCode);
      }
    }
    env.status.count(outlink === DONE_OUTLINK ? 'done' : outlink === FAILURE_OUTLINK ? 'failure' : 'nohit');
    if (rs.displayMask > 0)
      displayMessage(
        env.logger,
        `${rs.name} ${rc === undefined ? 'routed' : `collected at task ${entry.task} with ${msg.getField(s.rcField) ?? rc}`} to ${s.outlinkNames[outlink]}`,
        msg,
        rs.displayMask,
        rs.stringProperty,
      );
    this.send(entry, outlink);
  }

  private finished(entry: Entry, outcome: Outcome): void {
    this.env.status.count(outcome === 'done' ? 'finished' : 'finishedFailed');
    this.input.remove(entry.request, outcome);
  }

  private sendToCollectible(entry: Entry, outlink: number): void {
    if (this.settings.tidField !== undefined) entry.request.item.setProperty(this.settings.tidField, `${entry.rid}:${entry.task}`);
    this.send(entry, outlink);
  }

  private send(entry: Entry, outlink: number): void {
    const trace = this.env.status.totals.trace;
    if (trace !== undefined) trace.routed(entry.request.item, this.settings.outlinkNames[outlink]);
    if (this.debug) {
      const rc = entry.request.item.getProperty(this.settings.rcField);
      this.env.logger.debug('outlink chosen', {
        id: traceIdOf(entry.request.item),
        ruleset: this.settings.rulesets[entry.rid].name,
        task: entry.task,
        outlink: this.settings.outlinkNames[outlink],
        ...(rc !== undefined ? { rc } : {}),
      });
    }
    if (tracesMessage(entry.request.item)) {
      const ruleset = this.settings.rulesets[entry.rid]?.name;
      traceRoute(entry.request.item, this.env.name, `route ${ruleset}`, { [ATTR_RULESET]: ruleset, 'xroute.outlink': this.settings.outlinkNames[outlink] });
    }
    entry.outlink = outlink;
    this.senders[outlink].send(entry, entry.request.item, this.returned);
  }

  /** A failed format is logged and the message goes on unformatted, as in the original. */
  private format(entry: Entry, format: CollectRuleset['format']): void {
    if (format === undefined) return;
    try {
      format.apply(entry.request.item);
    } catch (e) {
      this.env.status.count('formatErrors');
      this.env.logger.error('failed to format a message; it goes on unformatted', {
        ruleset: this.settings.rulesets[entry.rid].name,
        field: format.field,
        error: describeError(e),
      });
    }
  }
}

export const collectNodeComponent: ComponentDefinition<never, CollectNodeSettings> = {
  className: 'node.CollectNode',
  role: 'node',
  needsInput: true,
  runsOnStart: true,
  operations: ['collect'],
  description:
    'Sends each message to a collectible outlink (e.g. a MessageEvaluator), collects it when it bounces back and routes the same message on by its return code: done, failure, or the next task of its ruleset.',
  schema: COLLECT_NODE_SCHEMA,
  repeatableOutlinks: FIRST_COLLECTIBLE,
  settings: (name, config, _baseDir, context) => parseCollectNodeSettings(name, config, { warn: context.warn }),
  create: (env, settings) => new CollectNodeBehaviour(env, settings),
};
