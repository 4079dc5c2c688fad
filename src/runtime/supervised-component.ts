/** What the flow supervisor keeps per component across incarnations, apart from the flow so that a reload's steps use it too. */
import { ActorRef } from './actor';
import { Backoff } from '../foundation/backoff';
import { StatusReporter } from './component';
import { ComponentSpec } from './topology-types';
import { redactText } from '../logging/redact';

export interface ComponentView {
  readonly name: string;
  readonly className: string;
  readonly role: string;
  /** The current incarnation's actor (a new one after each restart by the flow supervisor). */
  readonly ref: ActorRef<never>;
  readonly status: StatusReporter;
  readonly spec: ComponentSpec;
}

/** What the flow supervisor keeps per component across incarnations (restarts and a reload's replacements). */
export class SupervisedComponent implements ComponentView {
  ref!: ActorRef<never>;
  /** Restarts of earlier incarnations (each actor counts its own from 0). */
  earlierRestarts = 0;
  flowRestarts = 0;
  nextRestartAt: number | undefined;
  restartTimer: NodeJS.Timeout | undefined;
  /** The last crash or give-up, masked, as the status shows it. */
  lastError: string | undefined;
  /** Gave up and will not be restarted (OnGiveUp exit). */
  failedForGood = false;
  /** Paused by an operator (Flow.pause): stopped, shown as PAUSE, until Flow.resume. */
  paused = false;
  /** A pause, resume or restart of this component under way: another one waits for it. */
  control: Promise<unknown> = Promise.resolve();
  endpoint: Readonly<Record<string, string>> | undefined;
  giveUpBackoff: Backoff;
  className: string;
  private currentSpec: ComponentSpec;

  constructor(
    readonly name: string,
    readonly role: string,
    readonly status: StatusReporter,
    spec: ComponentSpec,
  ) {
    this.currentSpec = spec;
    this.className = spec.definition.className;
    this.giveUpBackoff = new Backoff(spec.policy.giveUpBackoff);
    this.endpoint = endpointOf(spec.config);
  }

  get spec(): ComponentSpec {
    return this.currentSpec;
  }

  /** A reload gives the component a new definition (its next incarnation starts on it). */
  redefine(spec: ComponentSpec): void {
    if (spec === this.currentSpec) return;
    const previous = this.currentSpec;
    this.currentSpec = spec;
    this.className = spec.definition.className;
    // A kept component keeps where its give-up back-off stands; only a new back-off policy starts it again.
    if (JSON.stringify(previous.policy.giveUpBackoff) !== JSON.stringify(spec.policy.giveUpBackoff))
      this.giveUpBackoff = new Backoff(spec.policy.giveUpBackoff);
    this.endpoint = endpointOf(spec.config);
  }

  get restarts(): number {
    return this.earlierRestarts + this.ref.restarts() + this.flowRestarts;
  }
}

/** Configuration properties that name where a component talks to its broker (or file system). */
const ENDPOINT_KEYS = [
  'URI',
  'URL',
  'HostName',
  'Host',
  'Port',
  'VirtualHost',
  'ExchangeName',
  'RoutingKey',
  'QueueName',
  'TopicName',
  'Address',
  'Destination',
  'FileName',
  'Path',
];

/** The endpoint of a component as configured, URI passwords and configured secrets masked. */
function endpointOf(config: ComponentSpec['config']): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const key of ENDPOINT_KEYS) {
    const v = config[key];
    if (typeof v === 'string' && v.trim() !== '') out[key] = redactText(v);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
