/**
 * The TypeScript side of a pool request: builds the ObjectMessage with a fresh transmit XQueue, puts it
 * into the pool's input XQueue and resolves when the pool removes it (the reply), with the handle.
 *
 *   const client = new PoolClient(poolInput);
 *   const handle = await client.request({ URI: 'tcp://127.0.0.1:7227?Operation=request' });
 *   await handle.transmit.put(Message.text('ping\n'), (m) => console.log(m.bodyText()));
 */
import { Message } from '../../src/message/message';
import { ConfigValue } from '../../src/runtime/component';
import { XQueue } from '../../src/xqueue/xqueue';
import { PoolHandle } from './pool-handle';
import { POOL_RC, PoolRequestError, PoolReturnCode, TASK_KEYS } from './pool-request';

export interface PoolRequest {
  URI: string;
  Properties?: Record<string, ConfigValue>;
  /** Use this transmit queue instead of a fresh one. */
  XQueue?: XQueue<Message>;
  /** Capacity of the fresh transmit queue (default: the client's transmitCapacity). */
  capacity?: number;
  signal?: AbortSignal;
}

export interface PoolClientOptions {
  /** The pool's RCField (default "ReturnCode"). */
  rcField?: string;
  /** The pool's URIField (default "URI"). */
  uriField?: string;
  /** Capacity of each fresh transmit queue (default 64). */
  transmitCapacity?: number;
  /** Prefix of transmit queue names (default "tx"). */
  prefix?: string;
}

let clientIds = 0;

export class PoolClient {
  private readonly rcField: string;
  private readonly uriField: string;
  private readonly capacity: number;
  private readonly prefix: string;
  private seq = 0;

  constructor(
    readonly poolInput: XQueue<Message>,
    options: PoolClientOptions = {},
  ) {
    this.rcField = options.rcField ?? 'ReturnCode';
    this.uriField = options.uriField ?? 'URI';
    this.capacity = options.transmitCapacity ?? 64;
    this.prefix = `${options.prefix ?? 'tx'}${++clientIds}`;
  }

  /** Builds the request message the pool reads (also usable to send a request from any component). */
  buildRequest(req: PoolRequest): { message: Message; task: Record<string, unknown>; transmit: XQueue<Message> } {
    const transmit = req.XQueue ?? new XQueue<Message>(`${this.prefix}_${++this.seq}`, req.capacity ?? this.capacity);
    const task: Record<string, unknown> = { [TASK_KEYS.XQueue]: transmit, [this.uriField]: req.URI };
    if (req.Properties) task[TASK_KEYS.Properties] = req.Properties;
    const message = Message.object(task, { [this.uriField]: req.URI });
    return { message, task, transmit };
  }

  /**
   * Sends the request and waits for the pool's answer. Resolves with the handle; rejects with a
   * PoolRequestError carrying the pool's return code and reason.
   */
  request(req: PoolRequest): Promise<PoolHandle> {
    const { message, task } = this.buildRequest(req);
    return new Promise<PoolHandle>((resolve, reject) => {
      const onDone = () => {
        const handle = task[TASK_KEYS.Handle];
        const rc = Number(task[this.rcField] ?? message.getField(this.rcField) ?? POOL_RC.REJECTED) as PoolReturnCode;
        if (handle instanceof PoolHandle && rc === POOL_RC.SUCCESS) resolve(handle);
        else reject(new PoolRequestError(rc, String(task[TASK_KEYS.Reason] ?? `pool answered RC ${rc} without a handle`)));
      };
      this.poolInput.put(message, onDone, { signal: req.signal }).catch(reject);
    });
  }
}
