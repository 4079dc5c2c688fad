/**
 * What a pool hands back for a request (the original's `Thread`): the requester sees the child's status
 * and controls it through its transmit XQueue; release() (or stopping the XQueue) checks the child in.
 */
import { ActorRef } from '../../src/runtime/actor';
import { ComponentConfig, ComponentStatus, StatusReporter, StatusSnapshot } from '../../src/runtime/component';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';

/** running (incl. connecting/retrying: see `component` and `detail`), paused, stopped (not yet checked in), closed (checked in), failed. */
export type HandleState = 'running' | 'paused' | 'stopped' | 'closed' | 'failed';

export interface HandleStatus {
  readonly state: HandleState;
  /** The child's own status (RETRYING while it cannot connect, with the reason in detail). */
  readonly component: ComponentStatus;
  readonly detail?: string;
  readonly restarts: number;
  readonly counters: Readonly<Record<string, number>>;
}

export interface PoolHandleInit {
  readonly id: string;
  readonly className: string;
  readonly uri: string;
  readonly transmit: XQueue<Message>;
  readonly maxIdleTime?: string;
  readonly properties: ComponentConfig;
  readonly ref: ActorRef<never>;
  readonly reporter: StatusReporter;
  readonly release: () => Promise<void>;
  /** Restarts the child really had (the actor also counts the last crash, after which the child only gives up). */
  readonly restarts?: () => number;
}

const PAUSED: ReadonlySet<ComponentStatus> = new Set(['PAUSE', 'STANDBY', 'DISABLED']);

export class PoolHandle {
  readonly id: string;
  readonly className: string;
  readonly uri: string;
  readonly transmit: XQueue<Message>;
  /** Seconds, as the merged properties give it; the requester may retire idle transmit queues by it. */
  readonly maxIdleTime?: string;
  /** The merged properties the child was built from (and is rebuilt from on a restart). */
  readonly properties: ComponentConfig;
  private readonly ref: ActorRef<never>;
  private readonly reporter: StatusReporter;
  private readonly releaseFn: () => Promise<void>;
  private readonly restartsFn: () => number;
  private final: { state: 'closed' | 'failed'; detail?: string } | undefined;
  private resolveClosed!: () => void;
  private readonly closedPromise = new Promise<void>((r) => (this.resolveClosed = r));

  constructor(init: PoolHandleInit) {
    this.id = init.id;
    this.className = init.className;
    this.uri = init.uri;
    this.transmit = init.transmit;
    this.maxIdleTime = init.maxIdleTime;
    this.properties = init.properties;
    this.ref = init.ref;
    this.reporter = init.reporter;
    this.releaseFn = init.release;
    this.restartsFn = init.restarts ?? (() => init.ref.restarts());
  }

  get state(): HandleState {
    if (this.final) return this.final.state;
    const actor = this.ref.status();
    const component = this.reporter.status;
    if (actor === 'failed' || component === 'FAILED') return 'failed';
    if (actor === 'stopped' || actor === 'stopping' || component === 'STOPPED' || component === 'CLOSED' || this.transmit.state === 'stopped') return 'stopped';
    if (this.transmit.state === 'paused' || PAUSED.has(component)) return 'paused';
    return 'running';
  }

  status(): HandleStatus {
    const snap: StatusSnapshot = this.reporter.get();
    return {
      state: this.state,
      component: snap.status,
      detail: this.final?.detail ?? snap.detail,
      restarts: this.restartsFn(),
      counters: snap.counters,
    };
  }

  /** Calls `listener` on every status change of the child. Returns the unsubscribe function. */
  onStatus(listener: (s: StatusSnapshot) => void): () => void {
    return this.reporter.onChange(listener);
  }

  /** Nothing moves through the transmit queue until resume(). */
  pause(): void {
    this.transmit.pause();
  }

  resume(): void {
    this.transmit.resume();
  }

  /** Stops the transmit queue; the pool then checks the child in. */
  stop(): void {
    this.transmit.stop();
  }

  /** Returns the child to the pool: it is stopped and its slot freed. Resolves when that is done. */
  release(): Promise<void> {
    return this.releaseFn();
  }

  /** Resolves once the pool has checked the child in (for any reason). */
  closed(): Promise<void> {
    return this.closedPromise;
  }

  /** Called by the pool when it checks the child in. */
  markClosed(state: 'closed' | 'failed', detail?: string): void {
    if (this.final) return;
    this.final = { state, detail };
    this.resolveClosed();
  }
}
