/** What a broker path of the latency bench is made of: the broker's queues for a run and the two sides that move messages. */
import type { HopTrace } from './hop-trace';
import type { ArrivalLog } from './latency';

/** One side of a broker path: moves every message from `inQueue` to `outQueue` until stopped. */
export interface MoverSide {
  readonly label: string;
  /** `trace`, when given, logs the side's events per message: xroute's link events, a raw client's delivery and confirm. */
  start(inQueue: string, outQueue: string, trace?: HopTrace): Promise<() => Promise<void>>;
}

/** Two fresh queues of a run (source and destination) and what the bench does with them. */
export interface RunQueues {
  readonly inQueue: string;
  readonly outQueue: string;
  /** Queues messages 0..n-1 on the source; resolves once the broker holds them all. */
  fill(n: number): Promise<void>;
  /** Sends message `seq` to the source now (open loop: never waits). */
  send(seq: number): void;
  /** From now on logs each arrival at the destination by the sequence number in its body. */
  watch(log: ArrivalLog): Promise<void>;
}

/** A broker the bench runs on: each run gets fresh queues, cleaned up afterwards. */
export interface BrokerKit {
  withQueues<T>(work: (q: RunQueues) => Promise<T>): Promise<T>;
}
