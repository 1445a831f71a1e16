/**
 * A call to a worker thread that the calling thread waits for: the request goes out on a MessagePort, the
 * caller sleeps in `Atomics.wait` on a shared flag until the worker raises it, then takes the reply with
 * `receiveMessageOnPort` (its event loop never runs meanwhile). The same mechanism as synckit and the script
 * worker's host calls; replies carry the request's id, so a late answer to a call that timed out is dropped.
 */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/** Index of the flag in the shared Int32Array: 0 while nothing new has arrived, 1 once a reply is posted. */
const FLAG = 0;

/** What travels to the worker: the request plus its id and the moment the caller stops waiting. */
export interface ChannelRequest<R> {
  id: number;
  /** Epoch milliseconds after which the caller no longer waits (the worker may skip the work). */
  deadline: number;
  request: R;
}

export interface ChannelReply<A> {
  id: number;
  answer: A;
}

/** A new shared flag for one channel (hand its `buffer` to the worker). */
export function createChannelFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** The calling side. */
export class BlockingChannel<R, A> {
  private nextId = 0;

  constructor(
    private readonly port: MessagePort,
    private readonly flag: Int32Array,
  ) {}

  /** Sends `request` and waits at most `timeoutMillis` for its answer; undefined on timeout. */
  call(request: R, timeoutMillis: number): { answer: A } | undefined {
    const id = ++this.nextId;
    const deadline = Date.now() + timeoutMillis;
    Atomics.store(this.flag, FLAG, 0);
    this.port.postMessage({ id, deadline, request } satisfies ChannelRequest<R>);
    for (;;) {
      // Lower the flag before reading: a reply posted after this read raises it again, so none is missed.
      Atomics.store(this.flag, FLAG, 0);
      for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
        const reply = m.message as ChannelReply<A>;
        if (reply.id === id) return { answer: reply.answer };
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) return undefined;
      Atomics.wait(this.flag, FLAG, 0, remaining);
    }
  }
}

/** The worker side: posts the reply, then wakes the caller. */
export function replyOnChannel<A>(port: MessagePort, flag: Int32Array, id: number, answer: A): void {
  port.postMessage({ id, answer } satisfies ChannelReply<A>);
  Atomics.store(flag, FLAG, 1);
  Atomics.notify(flag, FLAG);
}
