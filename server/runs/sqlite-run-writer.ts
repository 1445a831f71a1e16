/**
 * Writes run records to a SQLite file from a worker thread of its own (a second connection to the same
 * file, in WAL mode), so that the inserts, their index updates, the commits and the WAL checkpoints they
 * trigger take no time from the event loop that serves requests. Batches are written in the order given,
 * one transaction each; `write` resolves when its batch is committed (readable by the main connection).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The worker's program, as plain JavaScript text (run with `eval`: the same code from sources and bundle). */
const RUN_WRITER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const statement = db.prepare(workerData.sql);
const writeAll = db.transaction((rows) => {
  for (const row of rows) statement.run(...row);
});
parentPort.on('message', (message) => {
  if (message.close) {
    db.close();
    parentPort.postMessage({ id: message.id });
    return;
  }
  try {
    writeAll.immediate(message.rows);
    parentPort.postMessage({ id: message.id });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error && error.message ? error.message : error) });
  }
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

export class SqliteRunWriter {
  /** Started with the first write (many servers, e.g. in tests, never record a run). */
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  /** `sql` is one statement with `?` placeholders, run once per row of each batch. */
  constructor(
    private readonly file: string,
    private readonly sql: string,
  ) {}

  /** Writes the rows in one transaction; resolves once they are committed. */
  write(rows: readonly unknown[][]): Promise<void> {
    return this.ask({ rows }, this.worker ?? this.start());
  }

  /** Closes the worker's connection cleanly, then ends the worker. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    await this.ask({ close: true }, worker).catch(() => undefined);
    await worker.terminate();
  }

  private start(): Worker {
    const worker = new Worker(RUN_WRITER_SOURCE, {
      eval: true,
      workerData: { driver, file: this.file, sql: this.sql },
    });
    worker.unref();
    worker.on('message', (answer: { id: number; error?: string }) => {
      const waiter = this.waiting.get(answer.id);
      if (!waiter) return;
      this.waiting.delete(answer.id);
      if (answer.error === undefined) waiter.resolve();
      else waiter.reject(new Error(`run history write failed: ${answer.error}`));
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(new Error(`the run history writer stopped (${code})`));
    });
    this.worker = worker;
    return worker;
  }

  private ask(message: { rows: readonly unknown[][] } | { close: true }, worker: Worker): Promise<void> {
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
