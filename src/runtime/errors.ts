/**
 * The errors of the runtime layer (docs/architecture.md, "Errors"): supervision, the flow's API, reload and
 * plugin loading. Every class derives from XrouteError and keeps the error it wraps as `cause`.
 */
import { XrouteError } from '../foundation/xroute-error';
import { ConfigValueError } from '../errors/config-value-error';

/** A child escalated a failure it could not handle. */
export class ChildFailedError extends XrouteError {
  constructor(
    readonly child: string,
    cause: unknown,
  ) {
    super(`child ${child} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ChildFailedError';
  }
}

/** A crash count exceeded MaxRetry within WithinSeconds. */
export class TooManyCrashesError extends XrouteError {
  constructor(
    readonly actor: string,
    readonly crashes: number,
    readonly withinMs: number,
    /** The last crash's error. */
    cause: unknown,
  ) {
    super(`${actor} crashed ${crashes} times within ${withinMs / 1000}s; last: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'TooManyCrashesError';
  }
}

/**
 * send() found the link full and already as many sends waiting as the flow allows. It carries no stack
 * trace: a producer that does not await may cause a million of them, and the place is always send().
 */
export class QueueFullError extends XrouteError {
  constructor(
    readonly flow: string,
    readonly link: string,
    readonly maxWaitingSends: number,
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`flow ${flow}: link ${JSON.stringify(link)} is full and ${maxWaitingSends} sends are already waiting; await send() to be paced by the link`);
    Error.stackTraceLimit = limit;
    this.name = 'QueueFullError';
  }
}

export class UnknownComponentError extends XrouteError {
  constructor(
    readonly flow: string,
    readonly component: string,
    readonly known: readonly string[],
  ) {
    super(`flow ${flow} has no component ${JSON.stringify(component)}; components: ${known.join(', ')}`);
    this.name = 'UnknownComponentError';
  }
}

export class UnknownLinkError extends XrouteError {
  constructor(
    readonly flow: string,
    readonly link: string,
    readonly known: readonly string[],
  ) {
    super(`flow ${flow} has no link ${JSON.stringify(link)}; links: ${known.join(', ')}`);
    this.name = 'UnknownLinkError';
  }
}

/** A pause, resume or restart asked for while the flow stops. */
export class FlowStoppingError extends XrouteError {
  constructor(
    readonly flow: string,
    readonly component: string,
  ) {
    super(`flow ${flow} is stopping: ${component} is not paused, resumed or restarted`);
    this.name = 'FlowStoppingError';
  }
}

/** A step of a swap could not be done (a new incarnation not ready, a removed link not empty). */
export class ReloadStepError extends XrouteError {
  constructor(
    readonly component: string,
    message: string,
  ) {
    super(message);
    this.name = 'ReloadStepError';
  }
}

/** Nothing was received on a connection for its liveness limit. */
export class SilentPeerError extends XrouteError {
  constructor(
    /** The connection, e.g. amqp://host:5672. */
    readonly peer: string,
    /** The configured limit (ms) and the property that set it. */
    readonly limitMs: number,
    readonly property: string,
    /** When traffic was last seen (epoch ms). */
    readonly lastTrafficAt: number,
    readonly silentMs: number,
  ) {
    super(`${peer}: nothing received for ${silentMs} ms (limit ${limitMs} ms, set by ${property}): connection declared dead`);
    this.name = 'SilentPeerError';
  }
}

/** A plugin module that cannot be loaded or started; `expected` says what a valid one looks like. */
export class PluginLoadError extends XrouteError {
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly expected?: string,
    cause?: unknown,
  ) {
    super(problem, cause === undefined ? undefined : { cause });
    this.name = 'PluginLoadError';
  }
}

/** A Supervision map value that cannot be used; its property is "Supervision/<key>". */
export class SupervisionConfigError extends ConfigValueError {
  constructor(key: string, value: unknown, expected: string, cause?: unknown) {
    const detail = `${JSON.stringify(value)}: expected ${expected}`;
    super(
      { component: '', property: key ? `Supervision/${key}` : 'Supervision', expected, got: value, cause },
      { detail, message: `Supervision${key ? '.' + key : ''} ${detail}` },
    );
    this.name = 'SupervisionConfigError';
  }
}

/** A ClassName the registry does not know: a ConfigValueError of the component's ClassName. */
export class UnknownComponentClassError extends ConfigValueError {
  constructor(
    component: string,
    readonly className: string,
    readonly known: readonly string[],
    /** The ClassName meant, when a known class is close enough to be a misspelling. */
    readonly suggestion?: string,
  ) {
    const detail = `unknown ClassName ${JSON.stringify(className)}${suggestion === undefined ? '' : `; did you mean ${JSON.stringify(suggestion)}?`}; known classes: ${known.join(', ')}`;
    super({ component, property: 'ClassName', expected: 'a known component class', got: className }, { detail, message: `${component}: ${detail}` });
    this.name = 'UnknownComponentClassError';
  }
}
