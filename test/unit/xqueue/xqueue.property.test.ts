/**
 * Model-based property test of the XQueue (fast-check `fc.commands`): random interleavings of several
 * producers (two on the whole queue, two with partitions), several consumers, removes (done/failed),
 * putbacks, consumer crashes with replacement, late removes from crashed consumers, takebacks, plain
 * reservations that are cancelled, aborted waits, and pause/resume.
 *
 * The model is the FIFO list of waiting messages (in add order) and what each consumer holds. After every
 * command the real queue must agree with it and the invariants must hold: cells are never over-committed,
 * completions fire at most once, a waiting producer never waits while a cell of its partition is free,
 * and an idle consumer is woken whenever work is waiting. At the end everything is drained: every message
 * a producer handed over completed exactly once (or was taken back by its producer), and every waiting
 * producer was served.
 */
import fc from 'fast-check';
import { ConsumerHandle, DoneCallback, Outcome, Taken, XQueue } from '../../../src/xqueue/xqueue';
import { Partition, inPartition, parsePartition } from '../../../src/xqueue/partition';
import { settle } from './helpers';

interface Msg {
  readonly id: number;
  readonly producer: number;
  cell: number;
  addOrder: number;
}

/** An XQueue that tells the test, in order, every message that enters it. */
class ObservedXQueue extends XQueue<Msg> {
  onAdd: (cell: number, item: Msg) => void = () => undefined;
  override add(cell: number, item: Msg, onDone?: DoneCallback<Msg>): void {
    super.add(cell, item, onDone);
    this.onAdd(cell, item);
  }
}

interface ProducerState {
  readonly partition: Partition;
  pending?: { msg: Msg; abort: AbortController };
  reservations: number[];
}

interface ConsumerState {
  handle: ConsumerHandle;
  awake: boolean;
  held: Taken<Msg>[];
}

interface World {
  q: ObservedXQueue;
  producers: ProducerState[];
  consumers: ConsumerState[];
  /** Waiting messages in FIFO (add) order: what take() must hand out next. */
  ready: Msg[];
  /** Taken messages of crashed consumers: a late remove must be refused. */
  stale: Taken<Msg>[];
  handedOver: Msg[];
  takenBack: Set<number>;
  completions: Map<number, Outcome[]>;
  nextId: number;
  nextAddOrder: number;
  paused: boolean;
  failures: string[];
}

function newWorld(capacity: number): World {
  const q = new ObservedXQueue('prop', capacity);
  const w: World = {
    q,
    producers: [
      { partition: parsePartition(undefined, capacity), reservations: [] },
      { partition: parsePartition('', capacity), reservations: [] },
      { partition: parsePartition('0,2', capacity), reservations: [] },
      { partition: parsePartition(String(capacity - 1), capacity), reservations: [] },
    ],
    consumers: [],
    ready: [],
    stale: [],
    handedOver: [],
    takenBack: new Set(),
    completions: new Map(),
    nextId: 0,
    nextAddOrder: 0,
    paused: false,
    failures: [],
  };
  q.onAdd = (cell, item) => {
    item.cell = cell;
    item.addOrder = w.nextAddOrder++;
    w.ready.push(item);
  };
  for (let i = 0; i < 3; i++) w.consumers.push(attachConsumer(w, `c${i}`));
  return w;
}

function attachConsumer(w: World, name: string): ConsumerState {
  const c = { awake: false, held: [] } as unknown as ConsumerState;
  c.handle = w.q.attach(name, () => {
    c.awake = true;
  });
  return c;
}

function insertInOrder(list: Msg[], msg: Msg): void {
  let i = 0;
  while (i < list.length && list[i].addOrder < msg.addOrder) i++;
  list.splice(i, 0, msg);
}

function onDoneFor(w: World): DoneCallback<Msg> {
  return (item, outcome) => {
    const list = w.completions.get(item.id) ?? [];
    list.push(outcome);
    w.completions.set(item.id, list);
  };
}

function takeOne(w: World, c: ConsumerState): Taken<Msg> | undefined {
  const expected = !w.paused ? w.ready[0] : undefined;
  const t = w.q.take(c.handle);
  expect(t?.item).toBe(expected);
  if (!t) {
    c.awake = false;
    return undefined;
  }
  w.ready.shift();
  c.held.push(t);
  return t;
}

function removeOne(w: World, c: ConsumerState, index: number, outcome: Outcome): void {
  const [t] = c.held.splice(index % c.held.length, 1);
  const before = w.completions.get(t.item.id)?.length ?? 0;
  expect(w.q.remove(t, outcome)).toBe(true);
  expect(w.completions.get(t.item.id)).toHaveLength(before + 1);
  expect(w.completions.get(t.item.id)?.at(-1)).toBe(outcome);
}

/** Checked after every command. */
function checkInvariants(w: World): void {
  const s = w.q.stats();
  const held = w.consumers.reduce((n, c) => n + c.held.length, 0);
  const reservations = w.producers.reduce((n, p) => n + p.reservations.length, 0);
  expect(s.depth).toBe(w.ready.length);
  expect(s.inFlight).toBe(held);
  expect(s.depth + s.inFlight + s.reserved).toBeLessThanOrEqual(s.capacity);
  expect(s.depth + s.inFlight + s.reserved + s.free).toBe(s.capacity);
  expect(s.reserved).toBe(reservations); // waiting puts have been served and added, or hold nothing
  for (const [, outcomes] of w.completions) expect(outcomes.length).toBeLessThanOrEqual(1);
  if (!w.paused) {
    // A producer waits only while no cell of its partition is free.
    for (const p of w.producers) {
      if (!p.pending) continue;
      for (let cell = 0; cell < s.capacity; cell++) {
        if (inPartition(cell, p.partition)) expect(w.q.cellStateOf(cell)).not.toBe('empty');
      }
    }
    // Work waiting means some consumer has been woken and has not yet found the queue empty.
    if (w.ready.length > 0 && w.consumers.length > 0) expect(w.consumers.some((c) => c.awake)).toBe(true);
  }
  expect(w.failures).toEqual([]);
}

type Cmd = fc.AsyncCommand<World, World>;

abstract class Step implements Cmd {
  abstract check(w: Readonly<World>): boolean;
  abstract apply(w: World): void;
  async run(_m: World, w: World): Promise<void> {
    this.apply(w);
    await settle();
    checkInvariants(w);
  }
  abstract toString(): string;
}

class Put extends Step {
  constructor(readonly p: number) {
    super();
  }
  check(w: Readonly<World>) {
    return !w.producers[this.p].pending;
  }
  apply(w: World) {
    const producer = w.producers[this.p];
    const msg: Msg = { id: w.nextId++, producer: this.p, cell: -1, addOrder: -1 };
    const abort = new AbortController();
    producer.pending = { msg, abort };
    w.q.put(msg, onDoneFor(w), { partition: producer.partition, signal: abort.signal }).then(
      (cell) => {
        if (!inPartition(cell, producer.partition)) w.failures.push(`producer ${this.p} got cell ${cell} outside its partition`);
        w.handedOver.push(msg);
        producer.pending = undefined;
      },
      (err: Error) => {
        if (err.name !== 'ReserveAbortedError') w.failures.push(`put rejected: ${err.message}`);
        producer.pending = undefined;
      },
    );
  }
  toString() {
    return `put(p${this.p})`;
  }
}

class AbortWait extends Step {
  constructor(readonly p: number) {
    super();
  }
  check(w: Readonly<World>) {
    return w.producers[this.p].pending !== undefined;
  }
  apply(w: World) {
    // Only aborts a producer still waiting; one already served keeps its message in the queue.
    w.producers[this.p].pending?.abort.abort();
  }
  toString() {
    return `abort(p${this.p})`;
  }
}

class ReserveOnly extends Step {
  constructor(readonly p: number) {
    super();
  }
  check() {
    return true;
  }
  apply(w: World) {
    const producer = w.producers[this.p];
    const cell = w.q.tryReserve(producer.partition);
    if (cell >= 0) {
      expect(inPartition(cell, producer.partition)).toBe(true);
      producer.reservations.push(cell);
    }
  }
  toString() {
    return `tryReserve(p${this.p})`;
  }
}

class Cancel extends Step {
  constructor(readonly p: number) {
    super();
  }
  check(w: Readonly<World>) {
    return w.producers[this.p].reservations.length > 0;
  }
  apply(w: World) {
    w.q.cancel(w.producers[this.p].reservations.pop() as number);
  }
  toString() {
    return `cancel(p${this.p})`;
  }
}

class Take extends Step {
  constructor(readonly c: number) {
    super();
  }
  check() {
    return true;
  }
  apply(w: World) {
    takeOne(w, w.consumers[this.c]);
  }
  toString() {
    return `take(c${this.c})`;
  }
}

class Remove extends Step {
  constructor(
    readonly c: number,
    readonly index: number,
    readonly outcome: Outcome,
  ) {
    super();
  }
  check(w: Readonly<World>) {
    return w.consumers[this.c].held.length > 0;
  }
  apply(w: World) {
    removeOne(w, w.consumers[this.c], this.index, this.outcome);
  }
  toString() {
    return `remove(c${this.c}, #${this.index}, ${this.outcome})`;
  }
}

class Putback extends Step {
  constructor(
    readonly c: number,
    readonly index: number,
  ) {
    super();
  }
  check(w: Readonly<World>) {
    return w.consumers[this.c].held.length > 0;
  }
  apply(w: World) {
    const c = w.consumers[this.c];
    const [t] = c.held.splice(this.index % c.held.length, 1);
    expect(w.q.putback(t)).toBe(true);
    insertInOrder(w.ready, t.item);
  }
  toString() {
    return `putback(c${this.c}, #${this.index})`;
  }
}

class Park extends Step {
  constructor(readonly c: number) {
    super();
  }
  check() {
    return true;
  }
  apply(w: World) {
    const c = w.consumers[this.c];
    c.awake = false;
    w.q.park(c.handle);
  }
  toString() {
    return `park(c${this.c})`;
  }
}

/** The consumer crashes: it is detached (its messages go back) and a replacement is attached. */
class Crash extends Step {
  constructor(readonly c: number) {
    super();
  }
  check() {
    return true;
  }
  apply(w: World) {
    const c = w.consumers[this.c];
    expect(w.q.detach(c.handle)).toBe(c.held.length);
    for (const t of c.held) {
      insertInOrder(w.ready, t.item);
      w.stale.push(t);
    }
    w.consumers[this.c] = attachConsumer(w, `c${this.c}-replacement-${w.nextId}`);
  }
  toString() {
    return `crash(c${this.c})`;
  }
}

class LateRemove extends Step {
  check(w: Readonly<World>) {
    return w.stale.length > 0;
  }
  apply(w: World) {
    const t = w.stale.pop() as Taken<Msg>;
    const before = w.completions.get(t.item.id)?.length ?? 0;
    expect(w.q.remove(t)).toBe(false);
    expect(w.q.putback(t)).toBe(false);
    expect(w.completions.get(t.item.id)?.length ?? 0).toBe(before);
  }
  toString() {
    return 'lateRemove';
  }
}

class Takeback extends Step {
  constructor(readonly index: number) {
    super();
  }
  check(w: Readonly<World>) {
    return w.ready.length > 0;
  }
  apply(w: World) {
    const [msg] = w.ready.splice(this.index % w.ready.length, 1);
    expect(w.q.takeback(msg.cell)).toBe(msg);
    w.takenBack.add(msg.id);
  }
  toString() {
    return `takeback(#${this.index})`;
  }
}

class Pause extends Step {
  check(w: Readonly<World>) {
    return !w.paused;
  }
  apply(w: World) {
    w.paused = true;
    w.q.pause();
  }
  toString() {
    return 'pause';
  }
}

class Resume extends Step {
  check(w: Readonly<World>) {
    return w.paused;
  }
  apply(w: World) {
    w.paused = false;
    w.q.resume();
  }
  toString() {
    return 'resume';
  }
}

/** After the random steps: resume, finish every message, and let every waiting producer through. */
async function drainAll(w: World): Promise<void> {
  if (w.paused) new Resume().apply(w);
  for (const p of w.producers) while (p.reservations.length > 0) w.q.cancel(p.reservations.pop() as number);
  for (const c of w.consumers) while (c.held.length > 0) removeOne(w, c, 0, 'done');
  await settle();
  const c = w.consumers[0];
  for (let rounds = 0; w.producers.some((p) => p.pending) || w.ready.length > 0; rounds++) {
    if (rounds > 1000) throw new Error('a waiting producer was never served');
    while (takeOne(w, c)) removeOne(w, c, 0, 'done');
    await settle();
    checkInvariants(w);
  }
}

const producerIndex = fc.integer({ min: 0, max: 3 });
const consumerIndex = fc.integer({ min: 0, max: 2 });
const anyIndex = fc.nat({ max: 16 });
const commandArbitraries: fc.Arbitrary<Cmd>[] = [
  producerIndex.map((p) => new Put(p)),
  producerIndex.map((p) => new Put(p)),
  producerIndex.map((p) => new AbortWait(p)),
  producerIndex.map((p) => new ReserveOnly(p)),
  producerIndex.map((p) => new Cancel(p)),
  consumerIndex.map((c) => new Take(c)),
  consumerIndex.map((c) => new Take(c)),
  fc.tuple(consumerIndex, anyIndex, fc.constantFrom<Outcome>('done', 'done', 'failed')).map(([c, i, o]) => new Remove(c, i, o)),
  fc.tuple(consumerIndex, anyIndex).map(([c, i]) => new Putback(c, i)),
  consumerIndex.map((c) => new Park(c)),
  consumerIndex.map((c) => new Crash(c)),
  fc.constant(new LateRemove()),
  anyIndex.map((i) => new Takeback(i)),
  fc.constant(new Pause()),
  fc.constant(new Resume()),
];
const commands = fc.commands(commandArbitraries, { maxCommands: 80, size: 'large' });

describe('XQueue under random interleavings (model-based)', () => {
  it('loses nothing, completes each message at most once, keeps FIFO, never over-commits cells and serves every producer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 6 }), commands, async (capacity, cmds) => {
        const w = newWorld(capacity);
        await fc.asyncModelRun(() => ({ model: w, real: w }), cmds);
        await drainAll(w);
        for (const msg of w.handedOver) {
          const outcomes = w.completions.get(msg.id) ?? [];
          expect(outcomes).toHaveLength(w.takenBack.has(msg.id) ? 0 : 1);
        }
        expect(w.completions.size + w.takenBack.size).toBe(w.handedOver.length);
        expect(w.q.stats()).toMatchObject({ depth: 0, inFlight: 0, reserved: 0, free: capacity, waitingProducers: 0 });
        await w.q.whenEmpty();
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
