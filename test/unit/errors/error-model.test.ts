/**
 * The runtime's error model (src/foundation/xroute-error.ts): every error class of the running system derives from
 * XrouteError, and an error that wraps another carries it as `cause`. Checked by reading the source (a new class or
 * a new wrapping site is held to it too) and on the main wrapping sites.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { XrouteError } from '../../../src/foundation/xroute-error';
import { Amqp10ConnectError, Amqp10TlsError, connectFailure } from '../../../src/transports/amqp10-errors';
import { CompiledXPath, XPathProblem } from '../../../src/transforms/xpath-expression';
import { XPathError } from '../../../src/xml/xpath-compiler';
import { ActorRef, ActorRuntime, Behaviour } from '../../../src/runtime/actor';
import { silentLogger } from '../../../src/logging/logger';
import { policy, waitFor } from '../runtime/helpers';

const ROOT = join(__dirname, '..', '..', '..');

/** The configuration and command-line layers, whose errors have their own roots (ConfigValueError, ConfigError, UsageError). */
const OWN_ROOTS = ['src/config/', 'src/cli/', 'src/errors/', 'src/foundation/'];

/** Sites that build an error from a caught one without wrapping it, and why that is right. */
const NOT_WRAPPING: Record<string, string> = {
  'src/transports/amqp10-connection.ts: new Error(String(err))': 'turns a thrown non-Error into an Error; there is nothing to wrap',
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

const SOURCES = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'actors'))].map((file) => ({
  path: relative(ROOT, file),
  tree: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true),
}));

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** Classes declared `extends Error`, outside the layers with their own roots. */
function classesExtendingErrorDirectly(): string[] {
  const found: string[] = [];
  for (const { path, tree } of SOURCES) {
    if (OWN_ROOTS.some((root) => path.startsWith(root))) continue;
    walk(tree, (node) => {
      if (!ts.isClassDeclaration(node)) return;
      const base = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
      if (base !== undefined && base.getText() === 'Error') found.push(`${path}: ${node.name?.text ?? '(anonymous)'}`);
    });
  }
  return found;
}

/** The caught error's name in a catch clause or an error callback (`(err) => ...`). */
function caughtName(node: ts.Node): { name: string; body: ts.Node } | undefined {
  if (ts.isCatchClause(node) && node.variableDeclaration && ts.isIdentifier(node.variableDeclaration.name))
    return { name: node.variableDeclaration.name.text, body: node.block };
  if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node)) && node.body) {
    const param = node.parameters.find((p) => ts.isIdentifier(p.name) && /^(e|err|error|cause)$/.test(p.name.text));
    if (param) return { name: (param.name as ts.Identifier).text, body: node.body };
  }
  return undefined;
}

/** `new X(...)` that uses a caught error (its message, say) without passing it, bare or as `cause`. */
function wrappingSitesWithoutCause(): string[] {
  const found: string[] = [];
  for (const { path, tree } of SOURCES) {
    const check = (node: ts.Node, caught: string | undefined): void => {
      const scope = caughtName(node);
      if (scope !== undefined) {
        ts.forEachChild(scope.body, (child) => check(child, scope.name));
        return;
      }
      if (caught !== undefined && ts.isNewExpression(node) && node.arguments !== undefined) {
        let uses = false;
        for (const arg of node.arguments) walk(arg, (n) => (uses ||= ts.isIdentifier(n) && n.text === caught));
        const unwrap = (e: ts.Expression): ts.Expression => (ts.isAsExpression(e) || ts.isParenthesizedExpression(e) ? unwrap(e.expression) : e);
        const passes = node.arguments.some((arg) => {
          const a = unwrap(arg);
          if (ts.isIdentifier(a)) return a.text === caught;
          return ts.isObjectLiteralExpression(a) && a.properties.some((p) => p.name !== undefined && p.name.getText() === 'cause');
        });
        const site = `${path}: ${node.getText()}`;
        if (uses && !passes && NOT_WRAPPING[site] === undefined) found.push(site);
      }
      ts.forEachChild(node, (child) => check(child, caught));
    };
    check(tree, undefined);
  }
  return found;
}

describe('the error classes of the running system', () => {
  it('all derive from XrouteError (outside configuration and the command line, which have their own roots)', () => {
    expect(classesExtendingErrorDirectly()).toEqual([]);
  });

  it('pass the error they wrap as cause, wherever they are built from a caught one', () => {
    expect(wrappingSitesWithoutCause()).toEqual([]);
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
