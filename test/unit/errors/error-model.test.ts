/**
 * The runtime's error model (src/foundation/xroute-error.ts): every error class of the running system derives from
 * XrouteError, and an error that wraps another carries it as `cause`. Checked by reading the source (a new class or
 * a new wrapping site is held to it too) and on the main wrapping sites.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { XrouteError } from '../../../src/foundation/xroute-error';
import { Amqp10AuthError, Amqp10ConnectError, Amqp10TlsError, connectFailure, refusedConnection, refusedLink } from '../../../src/transports/amqp10-errors';
import { AmqpChannelError, AmqpStepError } from '../../../src/transports/amqp091-errors';
import { CompiledXPath, XPathProblem } from '../../../src/transforms/xpath-expression';
import { XPathError } from '../../../src/xml/xpath-compiler';
import { ActorRef, ActorRuntime, Behaviour } from '../../../src/runtime/actor';
import { silentLogger } from '../../../src/logging/logger';
import { policy, waitFor } from '../runtime/helpers';

const ROOT = join(__dirname, '..', '..', '..');

/** Sites that build an error inside a catch without wrapping the caught one, and why that is right. */
const NOT_WRAPPING: Record<string, string> = {
  'src/transports/amqp10-connection.ts: new Error(String(err))': 'turns a thrown non-Error into an Error; there is nothing to wrap',
  "src/transports/amqp091-session.ts: new Error('connection closed')": 'the close event came without an error: there is nothing to wrap',
  "src/transports/rabbit-header-relay.ts: new Error('AMQP 0-9-1 connection closed')": 'the close event came without an error: there is nothing to wrap',
  'actors/nodes/node-config-error.ts: new errorClass(component, join(e.property), e.problem, e.expectation, e.cause)':
    "rewords a RuleConfigError as the node's error, keeping its cause",
};

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

type Source = { path: string; tree: ts.SourceFile };
const parse = (path: string, text: string): Source => ({ path, tree: ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true) });

const SOURCES = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'actors'))].map((file) =>
  parse(relative(ROOT, file), readFileSync(file, 'utf8')),
);

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** Every class declared in src/ and actors/: where, and the class it extends (as written). */
function declaredClasses(sources: readonly Source[]): Map<string, { path: string; base: string | undefined }> {
  const classes = new Map<string, { path: string; base: string | undefined }>();
  for (const { path, tree } of sources)
    walk(tree, (node) => {
      if (!ts.isClassDeclaration(node) || node.name === undefined) return;
      const base = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression.getText();
      classes.set(node.name.text, { path, base });
    });
  return classes;
}

let CLASSES = declaredClasses(SOURCES);

/** The chain of classes from `name` up to the first one not declared in src/ or actors/ (Error, a library's class). */
function ancestry(name: string): string[] {
  const chain = [name];
  for (let base = CLASSES.get(name)?.base; base !== undefined && !chain.includes(base); base = CLASSES.get(base)?.base) chain.push(base);
  return chain;
}

/** An error class: its chain reaches a built-in error, or it is named like one. */
function isErrorClass(name: string): boolean {
  return ancestry(name).some((n) => /Error$/.test(n));
}

/** Error classes whose chain does not pass through XrouteError (the root itself aside). */
function errorClassesOutsideTheRoot(): string[] {
  return [...CLASSES.keys()]
    .filter((name) => name !== 'XrouteError' && isErrorClass(name) && !ancestry(name).includes('XrouteError'))
    .map((name) => `${CLASSES.get(name)!.path}: ${ancestry(name).join(' < ')}`);
}

/**
 * A scope that handles a caught error: a catch clause (with or without a binding), the handler of a promise's
 * .catch, or an error callback (`(err) => ...`). `name` is the caught error's name, undefined when it is unnamed.
 */
function caughtScope(node: ts.Node): { name: string | undefined; body: ts.Node } | undefined {
  if (ts.isCatchClause(node)) {
    const binding = node.variableDeclaration?.name;
    return { name: binding !== undefined && ts.isIdentifier(binding) ? binding.text : undefined, body: node.block };
  }
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node)) {
    if (node.body === undefined) return undefined;
    const first = node.parameters[0];
    const firstName = first !== undefined && ts.isIdentifier(first.name) ? first.name.text : undefined;
    const call = node.parent;
    const catchHandler =
      ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'catch' && call.arguments[0] === node;
    if (catchHandler) return { name: firstName, body: node.body };
    const param = node.parameters.find((p) => ts.isIdentifier(p.name) && /^(e|err|error|cause)$/.test(p.name.text));
    if (param) return { name: (param.name as ts.Identifier).text, body: node.body };
  }
  return undefined;
}

const unwrap = (e: ts.Expression): ts.Expression =>
  ts.isAsExpression(e) || ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) ? unwrap(e.expression) : e;

/**
 * `new X(...)` in a scope that handles a caught error, where X is an error class or the call uses the caught error
 * (its message, say), that does not pass the caught error: bare, or as `cause` in ErrorOptions.
 */
function wrappingSitesWithoutCause(sources: readonly Source[] = SOURCES): string[] {
  const found: string[] = [];
  for (const { path, tree } of sources) {
    const check = (node: ts.Node, caught: { name: string | undefined } | undefined): void => {
      const scope = caughtScope(node);
      if (scope !== undefined) {
        ts.forEachChild(scope.body, (child) => check(child, { name: scope.name }));
        return;
      }
      if (caught !== undefined && ts.isNewExpression(node)) {
        const args = node.arguments ?? [];
        let uses = false;
        for (const arg of args) walk(arg, (n) => (uses ||= caught.name !== undefined && ts.isIdentifier(n) && n.text === caught.name));
        const passes = args.some((arg) => {
          const a = unwrap(arg);
          if (ts.isIdentifier(a)) return a.text === caught.name;
          return ts.isObjectLiteralExpression(a) && a.properties.some((p) => p.name !== undefined && p.name.getText() === 'cause');
        });
        const site = `${path}: ${node.getText()}`;
        const errorClass = ts.isIdentifier(node.expression) && isErrorClass(node.expression.text);
        if ((uses || errorClass) && !passes && NOT_WRAPPING[site] === undefined) found.push(site);
      }
      ts.forEachChild(node, (child) => check(child, caught));
    };
    check(tree, undefined);
  }
  return found;
}

describe('the error classes of the running system', () => {
  it('all derive from XrouteError, directly or through another class (ConfigValueError, UsageError, ...)', () => {
    expect(errorClassesOutsideTheRoot()).toEqual([]);
  });

  it('are found: the scan sees the root, the configuration root and the classes of each layer', () => {
    const rooted = [...CLASSES.keys()].filter((name) => ancestry(name).includes('XrouteError'));
    expect(rooted).toEqual(
      expect.arrayContaining([
        'ConfigValueError',
        'UsageError',
        'TooManyCrashesError',
        'Amqp10ConnectError',
        'AmqpStepError',
        'XQueueStoppedError',
        'PoolRequestError',
      ]),
    );
  });

  it('pass the caught error as cause wherever one is built inside a catch or an error callback', () => {
    expect(wrappingSitesWithoutCause()).toEqual([]);
  });
});

describe('the scan', () => {
  const probe = parse(
    'src/probe.ts',
    `class LooseError extends TypeError {}
     class WrappedError extends XrouteError {}
     function a() { try { f(); } catch { throw new WrappedError('lost'); } }
     function b() { try { f(); } catch (e) { throw new WrappedError('kept', { cause: e }); } }
     function c() { return p.catch(() => { throw new WrappedError('lost too'); }); }`,
  );
  const real = CLASSES;
  beforeAll(() => (CLASSES = declaredClasses([...SOURCES, probe])));
  afterAll(() => (CLASSES = real));

  it('reports an error class outside the root, however it reaches Error', () => {
    expect(errorClassesOutsideTheRoot()).toEqual(['src/probe.ts: LooseError < TypeError']);
  });

  it('reports an error built in a catch without the caught error, the unnamed ones included', () => {
    expect(wrappingSitesWithoutCause([probe])).toEqual(["src/probe.ts: new WrappedError('lost')", "src/probe.ts: new WrappedError('lost too')"]);
  });
});

describe('the main wrapping sites', () => {
  it('keep the socket error under a failed AMQP 1.0 connection attempt', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5673'), { code: 'ECONNREFUSED' });
    const error = connectFailure('amqp://127.0.0.1:5673', refused);
    expect({ type: error.constructor.name, root: error instanceof XrouteError, message: error.message, cause: error.cause }).toEqual({
      type: Amqp10ConnectError.name,
      root: true,
      message: 'cannot connect to amqp://127.0.0.1:5673: connect ECONNREFUSED 127.0.0.1:5673',
      cause: refused,
    });
  });

  it('keep the TLS error under a TLS failure that retrying cannot cure', () => {
    const untrusted = Object.assign(new Error('unable to verify the first certificate'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    const error = connectFailure('amqps://broker:5671', untrusted);
    expect({ tls: error instanceof Amqp10TlsError, cause: error.cause }).toEqual({ tls: true, cause: untrusted });
  });

  it("keep rhea's error under a connection the broker refused, refused credentials told apart", () => {
    const sasl = { condition: 'amqp:unauthorized-access', description: 'SASL PLAIN authentication failed' };
    const closed = { condition: 'amqp:connection:forced', description: 'broker shutting down' };
    const auth = refusedConnection('amqp://127.0.0.1:5673', 'guest', sasl);
    const other = refusedConnection('amqp://127.0.0.1:5673', 'guest', closed);
    expect([auth instanceof Amqp10AuthError, auth.cause, other instanceof Amqp10AuthError, other.condition, other.cause]).toEqual([
      true,
      sasl,
      false,
      'amqp:connection:forced',
      closed,
    ]);
  });

  it("keep the broker's detach error under a refused link", () => {
    const detach = { condition: 'amqp:not-found', description: 'no such queue' };
    const error = refusedLink('amqp://127.0.0.1:5673', 'queue://missing', detach, 'attach refused');
    expect({ reason: error.reason, condition: error.condition, cause: error.cause }).toEqual({
      reason: 'no such queue',
      condition: 'amqp:not-found',
      cause: detach,
    });
  });

  it("keep amqplib's error under a failed 0-9-1 step and a closed channel", () => {
    const refused = Object.assign(new Error('Channel closed by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED"'), { code: 403 });
    const step = new AmqpStepError('rcv', 'consume', refused);
    const channel = new AmqpChannelError('rcv', refused);
    expect([step.cause, step.configError, step.replyCode, channel.cause, channel.code]).toEqual([refused, true, 403, refused, 403]);
  });

  it("keep the XPath engine's error under a ruleset's bad XPath", () => {
    let thrown: unknown;
    try {
      CompiledXPath.compile('/a[');
    } catch (e) {
      thrown = e;
    }
    expect({ problem: thrown instanceof XPathProblem, cause: (thrown as Error).cause instanceof XPathError }).toEqual({ problem: true, cause: true });
  });
});

describe('supervision', () => {
  it("keeps the crash under the child's TooManyCrashesError, and that under the parent's ChildFailedError", async () => {
    const runtime = new ActorRuntime('errors', silentLogger);
    const crash = new Error('asked to crash');
    try {
      let child: ActorRef<'crash'> | undefined;
      const parent = runtime.spawn(
        'flow',
        (): Behaviour<never> => ({
          start(ctx) {
            if (ctx.incarnation === 0)
              child = ctx.spawn(
                'worker',
                (): Behaviour<'crash'> => ({
                  receive() {
                    throw crash;
                  },
                }),
                { policy: policy('restart', { maxRetry: 0, withinMs: 10_000 }) },
              );
          },
        }),
        { policy: policy('stop') },
      );
      await waitFor(() => child !== undefined, 'the child to start');
      child!.tell('crash');
      await waitFor(() => parent.lastError() !== undefined, 'the parent to fail');
      const failed = parent.lastError() as Error;
      const exhausted = failed.cause as Error;
      expect([failed.name, exhausted.name, exhausted.cause]).toEqual(['ChildFailedError', 'TooManyCrashesError', crash]);
    } finally {
      await runtime.stop();
    }
  });
});
