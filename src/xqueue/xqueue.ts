/**
 * XQueue: the bounded link between components (README.md "How it fits together"): a mailbox of fixed capacity beside
 * the consumer actor, because a nact mailbox is unbounded.
 *
 * The queue object owns a fixed array of `capacity` cells. A producer must obtain a free cell (reserve)
 * before it hands a message over (add); when none is free it waits, so the queue never grows. Consumers
 * are actors that pull: the queue wakes an idle consumer with a single signal when there is work, and
 * the consumer takes messages in FIFO order until take() returns nothing.
 *
 * A cell stays attached to its message from add until the consumer removes it. Removal is "done": it
 * frees the cell and fires, exactly once, the completion callback the producer attached to that message
 * (the hook for broker acks, node bookkeeping and MessageEvaluator's bounce-back). A consumer that
 * crashes is detached and every cell it held is put back at its original position, so a replacement
 * takes over without losing or duplicating a cell; a late remove() from the crashed consumer is refused.
 */
import { AddClock } from './add-clock';
import { XQueueStoppedError, ReserveAbortedError, XQueueError } from './errors';
import { Partition, WHOLE_QUEUE, inPartition } from './partition';
import type { TallySource } from './message-counts';

export type CellState = 'empty' | 'reserved' | 'occupied' | 'taken';
const EMPTY = 0;
const RESERVED = 1;
const OCCUPIED = 2;
const TAKEN = 3;
const STATE_NAMES: readonly CellState[] = ['empty', 'reserved', 'occupied', 'taken'];

/** How the consumer finished with a message: done (processed) or failed (given up on after retries). */
export type Outcome = 'done' | 'failed';

/**
 * Called exactly once when the consumer removes the message, with the message as the consumer left it
 * and, for a failure, the consumer's short reason when it gave one (e.g. "unroutable on exchange x").
 */
export type DoneCallback<T> = (item: T, outcome: Outcome, cell: number, reason?: string) => void;

export type QueueState = 'running' | 'paused' | 'stopped';

/**
 * Where the queue counts one component's traffic: a consumer's messages taken and removed, or a producer's
 * messages added and how its consumers finished them. Owned by the component, so the figures survive its
 * restarts. The queue keeps the counts in its own records, where the hop writes anyway (a consumer's, a producer's),
 * and gives each record to the tally once (track); the tally sums them when read (MessageCounts), so a message pays
 * no increment for its component's figures (docs/operations.md "Cost of counting").
 */
export interface MessageTally {
  /** From now on the queue counts this component's messages in `source` (a consumer attached, a new producer). */
  track(source: TallySource): void;
  /**
   * Set while the component's messages are traced (`xroute run --trace`). Read only while some tally in the process is
   * traced: whoever sets it counts it with tallyTraced (ComponentTotals' trace setter does), so that an untraced message
   * pays one read of that count per hop, not a read of each tally's trace.
   */
  trace?: QueueTracer;
}

/** How many tallies in the process are traced now (tallyTraced): while none is, the queues read no tally's trace. */
let tracedTallies = 0;

/** A tally's trace was set (`traced` true) or cleared: the queues read tallies' traces while any is set. */
export function tallyTraced(traced: boolean): void {
  tracedTallies += traced ? 1 : -1;
}

/**
 * Told of each message of one traced component: taken from its input and finished there, or (a producer that
 * counts, i.e. a receiver) added to its output and finished by the consumer.
 */
export interface QueueTracer {
  took(link: string, item: unknown): void;
  finished(link: string, item: unknown, outcome: Outcome, reason?: string): void;
  added(link: string, item: unknown): void;
  delivered(link: string, item: unknown, outcome: Outcome, reason?: string): void;
}

/** A message a consumer has taken. Pass it back to remove() or putback(). */
export interface Taken<T> {
  readonly cell: number;
  readonly item: T;
  /** Distinguishes this take from a later take of the same cell (guards against a crashed consumer). */
  readonly generation: number;
  /**
   * The queue's own record of the cell, which remove and putback go to without looking the cell up (with 512 pooled
   * children's queues the look-up read two objects more per message; issue 32). Opaque: copy it with the rest when
   * you keep a Taken of your own. Without it (or with another queue's) the cell is looked up by its number.
   */
  readonly slot?: CellSlot;
}

declare const cellSlot: unique symbol;
/** A cell of some XQueue, as Taken.slot carries it: nothing to read, only to hand back. */
export interface CellSlot {
  readonly [cellSlot]: never;
}

/**
 * What the queue calls when work is available and the consumer is idle: an object with a method, so that a consumer
 * that already is one (an actor's consumer entry) needs no closure and context of its own (issue 32).
 */
export interface ConsumerWaker {
  wake(): void;
}

/** A consumer attached to the queue. `wake` is called when work is available and the consumer is idle. */
export interface ConsumerHandle {
  readonly id: number;
  readonly name: string;
}

export interface XQueueStats {
  readonly name: string;
  readonly capacity: number;
  readonly state: QueueState;
  /** messages waiting to be taken */
  readonly depth: number;
  /** messages taken by a consumer and not yet removed */
  readonly inFlight: number;
  /** cells held by producers that have not added yet */
  readonly reserved: number;
  /** depth + inFlight */
  readonly size: number;
  readonly free: number;
  readonly waitingProducers: number;
  readonly consumers: number;
  readonly totalAdded: number;
  readonly totalRemoved: number;
  readonly totalFailed: number;
  readonly totalPutback: number;
  readonly totalTakeback: number;
  /**
   * Milliseconds since the oldest message present (waiting or in flight) was added, to within the interval between
   * two stats() calls (it is dated by the first stats() after it); 0 when none.
   */
  readonly oldestAgeMs: number;
}

interface Waiter {
  partition: Partition;
  resolve: (cell: number) => void;
  reject: (err: XQueueStoppedError) => void;
  cleanup?: () => void;
}

/**
 * One cell: everything the queue knows of it in one object, so that a hop reads and writes one object per cell rather
 * than one slot in each of seven per-cell arrays (with many queues, e.g. 512 pooled children, each array slot was a
 * cache line of its own to fetch; issue 32).
 */
class Cell<T> {
  state = EMPTY;
  item: T | undefined = undefined;
  onDone: DoneCallback<T> | undefined = undefined;
  /** Order of adding (restore puts a message back at its place; the AddClock dates messages by it). */
  seq = 0;
  /** Counts the takes of the cell (wraps within the small-integer range): tells a Taken from a later take of the cell. */
  generation = 0;
  /** The consumer that took the message (while TAKEN). */
  holder: Consumer | undefined = undefined;
  /** The producer of the message (meaningful only while the cell is occupied or taken). */
  producer: Producer | undefined = undefined;
  /** The next cell of the list it is in (free, or ready while occupied), undefined at its end: see XQueue's lists. */
  next: Cell<T> | undefined = undefined;
  /** What put() returns for this cell when it was free: made once, not a promise per message (issue 32). */
  putResult: Promise<number> | undefined = undefined;

  constructor(
    /** Its queue: a Taken's slot is this cell only for the queue that took it. */
    readonly owner: XQueue<T>,
    /** Its number (the cell id of the public API). */
    readonly index: number,
  ) {}
}

/** The waiters of every queue no producer has waited on yet, shared: never added to (XQueue.wait gives a queue its own). */
const NO_WAITERS: Waiter[] = [];

/** Generations wrap here, staying small integers (a field that outgrows them would box every increment). */
const GENERATION_MASK = 0x3fffffff;

/**
 * An attached consumer, and its counts at this queue: what it removed done or failed and how many cells it holds,
 * written by take and remove anyway. Its tally's source: in is done + failed + held (a message put back leaves it).
 */
class Consumer implements ConsumerHandle, TallySource {
  scheduled = false;
  attached = true;
  /** Cells it has taken and not yet removed or put back (which cells: each cell's holder). */
  heldCount = 0;
  done = 0;
  failed = 0;

  constructor(
    readonly id: number,
    readonly name: string,
    readonly waker: ConsumerWaker,
    readonly tally: MessageTally | undefined,
  ) {}

  get in(): number {
    return this.done + this.failed + this.heldCount;
  }

  /** Detached: it removes nothing more and holds nothing. */
  get settled(): boolean {
    return !this.attached;
  }
}

/**
 * The messages one producer's tally (or every producer without one) added to this queue: added stands in for a
 * count of the queue's own, and what is done is derived when read (added, less taken back, failed and still
 * present), so the removal of a message writes nothing here unless it failed.
 */
class Producer implements TallySource {
  added = 0;
  takenBack = 0;
  failed = 0;
  /** Its queue was closed (XQueue.close): the figures are final, and the queue is no longer read. */
  settled = false;

  /** What is present once settled (its queue closed); until then the queue counts it. */
  private settledPresent = 0;

  constructor(
    readonly tally: MessageTally | undefined,
    /** Its queue, until it is closed (a method of the queue's, not a closure per queue: issue 32). */
    private queue: { presentFrom(producer: Producer): number } | undefined,
  ) {}

  get in(): number {
    return this.added - this.takenBack;
  }

  get done(): number {
    return this.added - this.takenBack - this.failed - this.present();
  }

  /**
   * Its queue is closed: what is present now stays so, and the record stops reading the queue, so that a tally that
   * holds it until its next read (which folds it in) does not keep the queue and its cells alive.
   */
  private present(): number {
    return this.queue === undefined ? this.settledPresent : this.queue.presentFrom(this);
  }

  settle(): void {
    this.settledPresent = this.present();
    this.queue = undefined;
    this.settled = true;
  }
}

export class XQueue<T> {
  // The fields a hop reads (offer, take, remove) come first, so that they share the object's first cache lines: with
  // 512 pooled children's queues each line is a miss per message (issue 32).
  private runState: QueueState = 'running';
  /** Cells producers may reserve: 0..cap-1 (resize changes it; cells past it are retired as they free). */
  private cap: number;
  /**
   * The free cells (in the order they are reserved) and the ready ones (occupied, in sequence order): lists linked
   * through the cells themselves (`next`), their ends kept here, so that a hop touches the queue and its cells and no
   * ring object or array beside them, the cells array included (with 512 pooled children each is a cache line to
   * fetch per hop; issue 32).
   */
  private freeHead: Cell<T> | undefined = undefined;
  private freeTail: Cell<T> | undefined = undefined;
  private freeCount = 0;
  private readyHead: Cell<T> | undefined = undefined;
  private readyTail: Cell<T> | undefined = undefined;
  private readyCount = 0;
  /** NO_WAITERS (shared, always empty) until a producer first waits: a hop reads no array of its own (issue 32). */
  private waiters: Waiter[] = NO_WAITERS;
  private waiterHead = 0;
  /** The producer record that added last (one per tally that added here, and one for producers without a tally). */
  private lastProducer: Producer;
  /** The cell reserved last, which add() of it (offer's, put's) finds here without looking it up by number. */
  private lastReserved: Cell<T> | undefined = undefined;
  private nextSeq = 0;
  private reservedCount = 0;
  private takenCount = 0;
  /**
   * The one consumer taking, when there is exactly one (most queues: a link's or a pool child's): a wake reads it here,
   * not through the consumers array (with 512 pooled children's queues the array was a cache miss per message; issue 32).
   */
  private sole: Consumer | undefined;
  /** whenEmpty's callers; undefined while there are none (a remove then reads no list). */
  private emptyWaiters: (() => void)[] | undefined;
  // The fields a hop reads end here (issue 32: each line of them is a miss per message with 512 pooled children).
  readonly name: string;
  /** Every cell by its number, for the calls that name one (a hop goes by the lists and the Taken's slot). */
  private readonly cells: Cell<T>[];
  private readonly consumers: Consumer[] = [];
  private nextConsumer = 0;
  /** Dates messages by their sequence number, stamped at each stats() (no clock read per message). */
  private readonly addClock = new AddClock();
  /** Every producer record (lastProducer is one of them). */
  private readonly producers: Producer[] = [];
  /** Attached consumers, taking or handing over (consumers[] lists the ones that take). */
  private readonly counting: Consumer[] = [];
  /** What consumers detached since removed: the queue's totals are this plus what the attached ones removed. */
  private retiredDone = 0;
  private retiredFailed = 0;
  private consumerIds = 0;
  /** close() was called: the queue stays stopped. */
  private closed = false;
  private readonly stateListeners = new Set<(s: QueueState) => void>();
  private putbacks = 0;
  /** The cell restore() put back last (where the next one's walk may start), undefined before any. */
  private lastRestored: Cell<T> | undefined = undefined;
  private takebacks = 0;
  /** Completion callbacks that threw (the error goes to onCallbackError). */
  callbackErrors = 0;
  onCallbackError?: (err: unknown, cell: number) => void;

  constructor(name: string, capacity: number) {
    this.name = name;
    this.cap = normaliseCapacity(capacity);
    const n = this.cap;
    const cells: Cell<T>[] = [];
    for (let i = 0; i < n; i++) cells.push(new Cell<T>(this, i));
    // A copy has exactly n slots; an array grown by push keeps at least 17 (a pool keeps 512 children's queues; issue 32).
    this.cells = cells.slice();
    for (const c of this.cells) this.freePush(c, false);
    this.lastProducer = this.producerFor(undefined);
  }

  get capacity(): number {
    return this.cap;
  }

  /**
   * Changes the capacity in place, for a reload (docs/operations.md#changing-a-running-flow): every message keeps
   * its cell and its place, producers and consumers keep their handles. Growing adds free cells (waiting producers
   * get them first). Shrinking retires the cells past the new capacity: free ones at once, used ones when their
   * message is removed, so the queue may hold more than its capacity until then; it never drops a message.
   */
  resize(capacity: number): void {
    const next = normaliseCapacity(capacity);
    const previous = this.cap;
    if (next === previous) return;
    const cells = this.cells.length;
    if (next > cells) this.growCells(next);
    this.cap = next;
    if (next < previous) this.freeRetainBelow(next);
    // Cells retired by an earlier shrink that are empty now become free again.
    for (let cell = previous; cell < Math.min(next, cells); cell++) if (this.cells[cell].state === EMPTY) this.freePush(this.cells[cell], false);
    for (let cell = cells; cell < next; cell++) this.freePush(this.cells[cell], false);
    this.serveWaiters();
  }

  /** `n` cells: new empty ones after those there are. */
  private growCells(n: number): void {
    for (let i = this.cells.length; i < n; i++) this.cells.push(new Cell<T>(this, i));
  }

  // ------------------------------------------------------------------ producer side

  /**
   * Reserves a free cell without waiting. Returns the cell id, or -1 when no cell (in the partition)
   * is free or the queue is paused. Throws XQueueStoppedError on a stopped queue.
   */
  tryReserve(partition: Partition = WHOLE_QUEUE): number {
    return this.reserveCell(partition)?.index ?? -1;
  }

  /** tryReserve's cell itself (offer and put go on with it, not with its number). */
  private reserveCell(partition: Partition): Cell<T> | undefined {
    if (this.runState === 'stopped') throw new XQueueStoppedError(this.name);
    if (this.runState === 'paused') return undefined;
    // Waiting producers have first claim on free cells, but each waits only for cells of its own
    // partition: serve them first, then a free cell none of them can use is this producer's.
    if (this.hasWaiters()) this.serveWaiters();
    const c = this.takeFreeCell(partition);
    if (c !== undefined) this.markReserved(c);
    return c;
  }

  /** Reserves a free cell, waiting (FIFO among producers) while none is free or the queue is paused. */
  reserve(options: { partition?: Partition; signal?: AbortSignal } = {}): Promise<number> {
    const partition = options.partition ?? WHOLE_QUEUE;
    const cell = this.tryReserve(partition);
    if (cell >= 0) return Promise.resolve(cell);
    return new Promise<number>((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) {
        reject(new ReserveAbortedError(this.name));
        return;
      }
      const waiter: Waiter = { partition, resolve, reject };
      const cancel = this.wait(waiter);
      if (signal) {
        const onAbort = () => {
          cancel();
          reject(new ReserveAbortedError(this.name));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.cleanup = () => signal.removeEventListener('abort', onAbort);
      }
    });
  }

  /**
   * Waits in the producers' FIFO for a free cell of `partition` and hands it over already reserved, by calling
   * `onCell` synchronously from whatever freed it (a consumer's remove, a cancel, a resume): the caller's reaction
   * (a broker credit, say) then leaves in the same turn as that consumer's acknowledgements, with no promise or
   * event listener per wait. `onStopped` is called instead if the queue stops first. Returns a cancel function
   * (a no-op once the cell was handed over). Meant for a caller that found no cell free (tryReserve gave -1).
   */
  whenFree(partition: Partition, onCell: (cell: number) => void, onStopped: (err: XQueueStoppedError) => void): () => void {
    if (this.runState === 'stopped') throw new XQueueStoppedError(this.name);
    return this.wait({ partition, resolve: onCell, reject: onStopped });
  }

  /** Queues a waiting producer; returns what takes it out of the queue again. */
  private wait(waiter: Waiter): () => void {
    if (this.waiters === NO_WAITERS) this.waiters = [];
    this.waiters.push(waiter);
    return () => {
      const i = this.waiters.indexOf(waiter, this.waiterHead);
      if (i < 0) return;
      this.waiters.splice(i, 1);
      waiter.cleanup?.();
    };
  }

  /** Returns a reserved cell unused. It is reused first. */
  cancel(cell: number): void {
    const c = this.expectState(cell, RESERVED, 'cancel');
    c.state = EMPTY;
    this.reservedCount--;
    this.releaseCell(c, true);
    this.notifyIfEmpty();
  }

  /**
   * Fills a reserved cell. `onDone` fires exactly once, when a consumer removes the message. `tally`, the
   * producer's, counts the message in and, at removal, done or failed.
   */
  add(cell: number, item: T, onDone?: DoneCallback<T>, tally?: MessageTally): void {
    // The cell offer or put just reserved is at hand: no look-up by number (issue 32).
    const last = this.lastReserved;
    const c = last !== undefined && last.index === cell && last.state === RESERVED ? last : this.expectState(cell, RESERVED, 'add');
    let producer = this.lastProducer;
    if (producer.tally !== tally) producer = this.producerFor(tally);
    // Stored only when it changes (a link usually has one producer; an emptied cell keeps its last one): an object
    // store costs a write barrier, more than an increment (docs/operations.md "Cost of counting").
    if (c.producer !== producer) c.producer = producer;
    producer.added++;
    if (tracedTallies !== 0) tally?.trace?.added(this.name, item);
    c.state = OCCUPIED;
    this.reservedCount--;
    c.item = item;
    c.onDone = onDone;
    c.seq = this.nextSeq++;
    this.readyPush(c);
    this.wakeConsumer();
  }

  /** Reserve (waiting when full) and add. Resolves with the cell id once the message is in the queue. */
  put(item: T, onDone?: DoneCallback<T>, options?: { partition?: Partition; signal?: AbortSignal; tally?: MessageTally }): Promise<number> {
    // Not an async function: a free cell is filled at once and costs one resolved promise (issue 32).
    let c: Cell<T> | undefined;
    try {
      c = this.reserveCell(options?.partition ?? WHOLE_QUEUE);
      if (c !== undefined) this.add(c.index, item, onDone, options?.tally);
    } catch (err) {
      return Promise.reject(err);
    }
    if (c !== undefined) return (c.putResult ??= Promise.resolve(c.index));
    return this.reserve(options).then((reserved) => {
      this.add(reserved, item, onDone, options?.tally);
      return reserved;
    });
  }

  /** Adds without waiting; returns the cell, or -1 when no cell is free (nothing is added). */
  offer(item: T, onDone?: DoneCallback<T>, partition: Partition = WHOLE_QUEUE, tally?: MessageTally): number {
    const c = this.reserveCell(partition);
    if (c === undefined) return -1;
    this.add(c.index, item, onDone, tally);
    return c.index;
  }

  /**
   * The producer withdraws a message no consumer has taken yet. No callback fires.
   * Returns the message, or undefined when the cell is not occupied (already taken or removed).
   */
  takeback(cell: number): T | undefined {
    if (!this.validCell(cell) || this.cells[cell].state !== OCCUPIED) return undefined;
    const c = this.cells[cell];
    this.readyRemove(c);
    const item = c.item;
    (c.producer as Producer).takenBack++; // withdrawn unseen: it comes back (and is counted) when redelivered
    clearCell(c);
    this.takebacks++;
    this.releaseCell(c, false);
    this.notifyIfEmpty();
    return item;
  }

  // ------------------------------------------------------------------ consumer side

  /** Attaches a consumer. `wake` is called (once per idle period) when a message can be taken. */
  attach(name: string, wake: (() => void) | ConsumerWaker, tally?: MessageTally): ConsumerHandle {
    const consumer = new Consumer(++this.consumerIds, name, typeof wake === 'function' ? { wake } : wake, tally);
    this.consumers.push(consumer);
    this.consumersChanged();
    this.counting.push(consumer);
    tally?.track(consumer);
    this.wakeConsumer();
    return consumer;
  }

  /**
   * Detaches a consumer (stopped or crashed). Every cell it still holds is put back at its original
   * position. Returns how many were put back.
   */
  detach(handle: ConsumerHandle): number {
    const consumer = this.ownConsumer(handle);
    if (!consumer.attached) return 0;
    consumer.attached = false;
    const i = this.consumers.indexOf(consumer);
    if (i >= 0) this.consumers.splice(i, 1);
    this.consumersChanged();
    const held = this.cellsHeldBy(consumer).sort((a, b) => a.seq - b.seq);
    for (const c of held) this.restore(c);
    consumer.heldCount = 0;
    this.counting.splice(this.counting.indexOf(consumer), 1);
    this.retiredDone += consumer.done;
    this.retiredFailed += consumer.failed;
    this.wakeConsumer();
    return held.length;
  }

  /**
   * A consumer hands what it holds over to its next incarnation (a reload, Behaviour.handOver): it takes nothing
   * more and is never woken again, but the messages it holds stay taken until adopt() gives them to the next
   * consumer (or detach() puts them back). Returns how many it holds.
   */
  holdForHandOver(handle: ConsumerHandle): number {
    const consumer = this.ownConsumer(handle);
    const i = this.consumers.indexOf(consumer);
    if (i >= 0) this.consumers.splice(i, 1);
    this.consumersChanged();
    this.wakeConsumer();
    return consumer.heldCount;
  }

  /**
   * `to` takes over every message `from` holds (their Taken stay valid: remove() and putback() work with them),
   * then `from` is detached. Returns how many it took over.
   */
  adopt(from: ConsumerHandle, to: ConsumerHandle): number {
    const old = this.ownConsumer(from);
    const next = this.ownConsumer(to);
    if (!old.attached || old === next) return 0;
    const cells = this.cellsHeldBy(old);
    for (const c of cells) c.holder = next;
    // The messages count in for the consumer that holds them (Consumer.in): they move from one to the other.
    next.heldCount += cells.length;
    old.heldCount = 0;
    this.detach(from);
    return cells.length;
  }

  /**
   * Takes the oldest waiting message. Returns undefined when there is none or the queue is paused or
   * stopped; the consumer is then idle and will be woken when work arrives.
   */
  take(handle: ConsumerHandle): Taken<T> | undefined {
    const consumer = this.ownConsumer(handle);
    if (!consumer.attached) return undefined;
    if (this.runState !== 'running' || this.readyCount === 0) {
      consumer.scheduled = false;
      return undefined;
    }
    const c = this.readyHead as Cell<T>; // readyCount > 0
    this.readyHead = c.next;
    if (--this.readyCount === 0) this.readyTail = undefined;
    c.next = undefined;
    c.state = TAKEN;
    this.takenCount++;
    c.holder = consumer;
    consumer.heldCount++;
    const item = c.item as T;
    if (tracedTallies !== 0) consumer.tally?.trace?.took(this.name, item);
    const generation = (c.generation + 1) & GENERATION_MASK;
    c.generation = generation;
    return { cell: c.index, item, generation, slot: c as unknown as CellSlot };
  }

  /**
   * The consumer is done with a message: frees the cell and fires the producer's callback with the
   * message as it is now. Returns false (and does nothing) for a stale Taken, e.g. from a consumer that
   * was detached after a crash.
   */
  remove(taken: Taken<T>, outcome: Outcome = 'done', reason?: string): boolean {
    const c = this.current(taken);
    if (c === undefined) return false;
    const cell = c.index;
    const item = c.item as T;
    const onDone = c.onDone;
    const holder = c.holder as Consumer; // current(): an attached consumer holds it
    holder.heldCount--;
    clearCell(c);
    this.takenCount--;
    // The only counts a removal writes: the consumer's, in place of a count of the queue's own (stats() sums them).
    if (outcome === 'failed') {
      holder.failed++;
      (c.producer as Producer).failed++; // clearCell leaves the producer
    } else holder.done++;
    if (tracedTallies !== 0) {
      holder.tally?.trace?.finished(this.name, item, outcome, reason);
      c.producer?.tally?.trace?.delivered(this.name, item, outcome, reason);
    }
    this.releaseCell(c, false);
    if (onDone) {
      try {
        onDone(item, outcome, cell, reason);
      } catch (err) {
        // A producer's callback must not crash the consumer that removed the message.
        this.callbackErrors++;
        this.onCallbackError?.(err, cell);
      }
    }
    this.notifyIfEmpty();
    return true;
  }

  /** Rolls a taken message back: it is offered again at its original FIFO position. */
  putback(taken: Taken<T>): boolean {
    const c = this.current(taken);
    if (c === undefined) return false;
    (c.holder as Consumer).heldCount--;
    this.restore(c);
    this.wakeConsumer();
    return true;
  }

  /**
   * Marks a consumer idle so it is woken again when work is (or still is) available. For consumers that
   * stop taking before take() returns nothing, e.g. because they have enough messages in flight.
   */
  park(handle: ConsumerHandle): void {
    const consumer = this.ownConsumer(handle);
    consumer.scheduled = false;
    this.wakeConsumer();
  }

  /** How many messages this consumer has taken and not yet removed or put back. */
  heldBy(handle: ConsumerHandle): number {
    return this.ownConsumer(handle).heldCount;
  }

  /** Reads a cell's message in any state without changing anything. */
  browse(cell: number): T | undefined {
    return this.validCell(cell) ? this.cells[cell].item : undefined;
  }

  cellStateOf(cell: number): CellState | 'out-of-range' {
    return this.validCell(cell) ? STATE_NAMES[this.cells[cell].state] : 'out-of-range';
  }

  /** Ids of the waiting (occupied) cells in FIFO order. */
  waitingCells(): number[] {
    const out: number[] = [];
    for (let c = this.readyHead; c !== undefined; c = c.next) out.push(c.index);
    return out;
  }

  // ------------------------------------------------------------------ control

  get state(): QueueState {
    return this.runState;
  }

  /** Nothing moves while paused: consumers take nothing, producers wait for cells. */
  pause(): void {
    this.setState('paused');
  }

  resume(): void {
    this.setState('running');
    this.serveWaiters();
    this.wakeAllIdle();
  }

  /**
   * Stops the queue: waiting producers are rejected, consumers are woken so they can see it and end.
   * Messages still in the queue stay there (they are not lost; resume() makes them available again).
   */
  stop(): void {
    this.setState('stopped');
    const waiters = this.waiters.splice(this.waiterHead);
    this.waiters.length = 0;
    this.waiterHead = 0;
    for (const w of waiters) {
      w.cleanup?.();
      w.reject(new XQueueStoppedError(this.name));
    }
    for (const c of [...this.consumers]) this.signal(c, true);
  }

  /**
   * Stops the queue for good: it has left the flow (a reload removed its link). Its producers' records settle with
   * their figures as they are now: the components' tallies fold them in at their next read and let them go, and with
   * them this queue (docs/operations.md "Cost of counting"). A closed queue is never resumed.
   */
  close(): void {
    this.closed = true;
    this.stop();
    for (const p of this.producers) p.settle();
  }

  onStateChange(listener: (state: QueueState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Resolves when no message is waiting, in flight or reserved (used to drain on shutdown). */
  whenEmpty(): Promise<void> {
    if (this.isEmpty()) return Promise.resolve();
    return new Promise((resolve) => (this.emptyWaiters ??= []).push(resolve));
  }

  get depth(): number {
    return this.readyCount;
  }

  get inFlight(): number {
    return this.takenCount;
  }

  /** messages present: waiting + in flight */
  get size(): number {
    return this.readyCount + this.takenCount;
  }

  /** "Full" means no free credit: reserved cells count (README.md). */
  isFull(): boolean {
    return this.freeCount === 0;
  }

  stats(): XQueueStats {
    return {
      name: this.name,
      capacity: this.cap,
      state: this.runState,
      depth: this.readyCount,
      inFlight: this.takenCount,
      reserved: this.reservedCount,
      size: this.readyCount + this.takenCount,
      free: this.freeCount,
      waitingProducers: this.waiters.length - this.waiterHead,
      consumers: this.consumers.length,
      totalAdded: this.producers.reduce((sum, p) => sum + p.added, 0),
      totalRemoved: this.counting.reduce((sum, c) => sum + c.done, this.retiredDone),
      totalFailed: this.counting.reduce((sum, c) => sum + c.failed, this.retiredFailed),
      totalPutback: this.putbacks,
      totalTakeback: this.takebacks,
      oldestAgeMs: this.oldestAgeMs(),
    };
  }

  /** Age of the oldest message present: the first waiting one (the ready ring is in sequence order) or one held by a consumer. */
  private oldestAgeMs(): number {
    let oldest = this.readyHead !== undefined ? this.readyHead.seq : this.nextSeq;
    if (this.takenCount > 0) {
      const taking = new Set(this.consumers);
      for (const c of this.cells) {
        if (c.holder !== undefined && taking.has(c.holder) && c.state === TAKEN) oldest = Math.min(oldest, c.seq);
      }
    }
    const now = Date.now();
    this.addClock.stamp(this.nextSeq, now, oldest);
    if (oldest === this.nextSeq) return 0;
    const addedBy = this.addClock.addedBy(oldest);
    return addedBy === undefined ? 0 : now - addedBy;
  }

  // ------------------------------------------------------------------ internals

  private validCell(cell: number): boolean {
    return Number.isInteger(cell) && cell >= 0 && cell < this.cells.length;
  }

  /** The cell, which must be in state `expected`. */
  private expectState(cell: number, expected: number, op: string): Cell<T> {
    if (!this.validCell(cell)) throw new XQueueError(this.name, `${op}: cell ${cell} out of range 0..${this.cells.length - 1}`);
    const c = this.cells[cell];
    if (c.state !== expected) throw new XQueueError(this.name, `${op}: cell ${cell} is ${STATE_NAMES[c.state]}, expected ${STATE_NAMES[expected]}`);
    return c;
  }

  /**
   * The cells `consumer` holds. A scan of the cells, for the rare detach and adopt: a count per consumer is all that each
   * take and remove pays (no set of cells per consumer to keep; issue 32).
   */
  private cellsHeldBy(consumer: Consumer): Cell<T>[] {
    return this.cells.filter((c) => c.holder === consumer && c.state === TAKEN);
  }

  /**
   * The cell of `taken` while that take is current (not removed or put back since, its consumer attached), else
   * undefined. Found through its slot when the slot is this queue's cell of that number, else looked up by number.
   */
  private current(taken: Taken<T>): Cell<T> | undefined {
    const slot = taken.slot as unknown as Cell<T> | undefined;
    let c: Cell<T>;
    if (slot !== undefined && slot.owner === this && slot.index === taken.cell) c = slot;
    else if (this.validCell(taken.cell)) c = this.cells[taken.cell];
    else return undefined;
    return c.state === TAKEN && c.generation === taken.generation && c.holder?.attached === true ? c : undefined;
  }

  private ownConsumer(handle: ConsumerHandle): Consumer {
    if (!(handle instanceof Consumer)) throw new XQueueError(this.name, `unknown consumer ${handle.name}`);
    return handle;
  }

  private hasWaiters(): boolean {
    return this.waiters.length > this.waiterHead;
  }

  /** The first free cell of `partition` (in the free list's order), taken out of the list; undefined when there is none. */
  private takeFreeCell(partition: Partition): Cell<T> | undefined {
    let previous: Cell<T> | undefined;
    for (let c = this.freeHead; c !== undefined; c = c.next) {
      if (partition.length === 0 || inPartition(c.index, partition)) {
        this.unlink(c, previous, true);
        return c;
      }
      previous = c;
    }
    return undefined;
  }

  /** Takes `c`, which follows `previous` (undefined: it is the head), out of the free list or the ready list. */
  private unlink(c: Cell<T>, previous: Cell<T> | undefined, free: boolean): void {
    if (previous !== undefined) previous.next = c.next;
    else if (free) this.freeHead = c.next;
    else this.readyHead = c.next;
    if (free) {
      if (this.freeTail === c) this.freeTail = previous;
      this.freeCount--;
    } else {
      if (this.readyTail === c) this.readyTail = previous;
      this.readyCount--;
    }
    c.next = undefined;
  }

  /** Adds a cell to the free list, at its end or (a cancelled reservation, reused first) at its front. */
  private freePush(c: Cell<T>, front: boolean): void {
    if (this.freeTail === undefined) {
      c.next = undefined;
      this.freeHead = this.freeTail = c;
    } else if (front) {
      c.next = this.freeHead;
      this.freeHead = c;
    } else {
      c.next = undefined;
      this.freeTail.next = c;
      this.freeTail = c;
    }
    this.freeCount++;
  }

  /** Keeps only the free cells below `cap`, in order (a shrink retires the others). */
  private freeRetainBelow(cap: number): void {
    let previous: Cell<T> | undefined;
    for (let c = this.freeHead; c !== undefined;) {
      const next = c.next;
      if (c.index >= cap) this.unlink(c, previous, true);
      else previous = c;
      c = next;
    }
  }

  /** Adds an occupied cell at the end of the ready list. */
  private readyPush(c: Cell<T>): void {
    c.next = undefined;
    if (this.readyTail === undefined) this.readyHead = c;
    else this.readyTail.next = c;
    this.readyTail = c;
    this.readyCount++;
  }

  /** Takes `c` out of the ready list if it is there. */
  private readyRemove(c: Cell<T>): void {
    let previous: Cell<T> | undefined;
    for (let at = this.readyHead; at !== undefined; at = at.next) {
      if (at === c) {
        this.unlink(c, previous, false);
        return;
      }
      previous = at;
    }
  }

  private markReserved(c: Cell<T>): void {
    c.state = RESERVED;
    this.reservedCount++;
    this.lastReserved = c;
  }

  /** TAKEN -> OCCUPIED at its original place in sequence order. */
  private restore(c: Cell<T>): void {
    c.state = OCCUPIED;
    this.takenCount--;
    // Given back unfinished: it leaves its consumer's in (Consumer.in counts held cells), and counts in again when taken.
    c.holder = undefined;
    this.putbacks++;
    // Before the first ready cell added after it (the ready list is in sequence order). The walk starts after the cell
    // restored last when that one is still ready and earlier: a detach restores what it held in sequence order, and
    // walking from the head each time made it quadratic in the cells held.
    const s = c.seq;
    const hint = this.lastRestored;
    this.lastRestored = c;
    if (this.readyTail !== undefined && this.readyTail.seq < s) {
      this.readyPush(c);
      return;
    }
    let previous: Cell<T> | undefined;
    let at = this.readyHead;
    if (hint !== undefined && hint !== c && hint.state === OCCUPIED && hint.seq < s) {
      previous = hint;
      at = hint.next;
    }
    while (at !== undefined && at.seq < s) {
      previous = at;
      at = at.next;
    }
    if (at === undefined) {
      this.readyPush(c);
      return;
    }
    c.next = at;
    if (previous === undefined) this.readyHead = c;
    else previous.next = c;
    this.readyCount++;
  }

  /** The record of `tally`'s messages here (made, and given to the tally, at its first add). */
  private producerFor(tally: MessageTally | undefined): Producer {
    let producer = this.producers.find((p) => p.tally === tally);
    if (producer === undefined) {
      producer = new Producer(tally, this);
      this.producers.push(producer);
      tally?.track(producer);
    }
    this.lastProducer = producer;
    return producer;
  }

  /**
   * How many messages of `producer` are in the queue (waiting or taken): all of them while no other producer added.
   * For the queue's Producer records only (which is why it takes one).
   */
  presentFrom(producer: Producer): number {
    if (this.producers.every((p) => p === producer || p.added === 0)) return this.readyCount + this.takenCount;
    let present = 0;
    for (const c of this.cells) if ((c.state === OCCUPIED || c.state === TAKEN) && c.producer === producer) present++;
    return present;
  }

  /** A cell became free: hand it to the first waiting producer whose partition holds it, else free it. */
  private releaseCell(c: Cell<T>, toFront: boolean): void {
    if (c.index >= this.cap) return; // retired by a shrink (resize)
    if (this.runState === 'running' && this.hasWaiters()) {
      for (let i = this.waiterHead; i < this.waiters.length; i++) {
        const w = this.waiters[i];
        if (inPartition(c.index, w.partition)) {
          if (i === this.waiterHead) this.waiterHead++;
          else this.waiters.splice(i, 1);
          this.compactWaiters();
          this.markReserved(c);
          w.cleanup?.();
          w.resolve(c.index);
          return;
        }
      }
    }
    this.freePush(c, toFront);
  }

  private compactWaiters(): void {
    if (this.waiterHead > 1024 && this.waiterHead * 2 > this.waiters.length) {
      this.waiters.splice(0, this.waiterHead);
      this.waiterHead = 0;
    }
  }

  /**
   * Hands free cells to waiting producers in FIFO order; a waiter whose partition has none keeps its place.
   * The waiters are told only once the list is consistent again: a whenFree callback may reserve more at once.
   */
  private serveWaiters(): void {
    if (this.runState !== 'running' || this.freeCount === 0) return;
    let served: { waiter: Waiter; cell: number }[] | undefined;
    let kept = this.waiterHead;
    for (let i = this.waiterHead; i < this.waiters.length; i++) {
      const w = this.waiters[i];
      const c = this.freeCount > 0 ? this.takeFreeCell(w.partition) : undefined;
      if (c === undefined) {
        this.waiters[kept++] = w;
        continue;
      }
      this.markReserved(c);
      (served ??= []).push({ waiter: w, cell: c.index });
    }
    this.waiters.length = kept;
    this.compactWaiters();
    if (served === undefined) return;
    for (const { waiter, cell } of served) {
      waiter.cleanup?.();
      waiter.resolve(cell);
    }
  }

  /** Wakes one idle consumer (round robin) if a message is waiting. */
  private wakeConsumer(): void {
    if (this.runState !== 'running' || this.readyCount === 0) return;
    const sole = this.sole;
    if (sole !== undefined) {
      if (!sole.scheduled) this.signal(sole, false);
      return;
    }
    const n = this.consumers.length;
    for (let k = 0; k < n; k++) {
      const c = this.consumers[(this.nextConsumer + k) % n];
      if (!c.scheduled) {
        this.nextConsumer = (this.nextConsumer + k + 1) % n;
        this.signal(c, false);
        return;
      }
    }
  }

  private consumersChanged(): void {
    this.sole = this.consumers.length === 1 ? this.consumers[0] : undefined;
  }

  private wakeAllIdle(): void {
    const waiting = this.readyCount;
    let woken = 0;
    for (const c of [...this.consumers]) {
      if (woken >= waiting) break;
      if (!c.scheduled) {
        this.signal(c, false);
        woken++;
      }
    }
  }

  private signal(c: Consumer, force: boolean): void {
    if (c.scheduled && !force) return;
    c.scheduled = true;
    c.waker.wake();
  }

  private setState(s: QueueState): void {
    if (this.runState === s || (this.closed && s !== 'stopped')) return;
    this.runState = s;
    for (const l of [...this.stateListeners]) l(s);
  }

  private isEmpty(): boolean {
    return this.readyCount === 0 && this.takenCount === 0 && this.reservedCount === 0;
  }

  private notifyIfEmpty(): void {
    if (this.emptyWaiters !== undefined && this.isEmpty()) {
      const ws = this.emptyWaiters;
      this.emptyWaiters = undefined;
      for (const w of ws) w();
    }
  }
}

/** As in the original, a capacity of 0 or less becomes 1. */
function normaliseCapacity(capacity: number): number {
  return Number.isFinite(capacity) && capacity > 0 ? Math.floor(capacity) : 1;
}

function clearCell<T>(c: Cell<T>): void {
  c.state = EMPTY;
  c.item = undefined;
  c.onDone = undefined;
  c.holder = undefined;
  // producer is left as it is: add() sets it for the next message, and nothing reads it for an empty cell.
}
