/**
 * Two connected in-memory streams that stand in for the ends of a loopback TCP connection, for tests that
 * hand one end to a real `http.Server` (`server.emit('connection', end)`) and the other to an HTTP client.
 *
 * Each end looks enough like a `net.Socket` for Node's HTTP server, Express and the app's per-IP code: it
 * has a loopback address and a port, `setTimeout` (which fires 'timeout' after that long without traffic),
 * `setNoDelay`, `setKeepAlive`, `ref` and `unref`. Bytes written to one end are read from the other, with
 * backpressure. Ending or destroying one end is read by the other as its end of data (a FIN); an end closes
 * once it has both read its end of data and ended writing, and what it writes to a closed peer is lost.
 */
import { Duplex } from 'node:stream';

/** Ports handed out to the ends, so that each connection has its own (as the kernel's ephemeral ports). */
let lastPort = 40_000;
function nextPort(): number {
  lastPort = lastPort >= 60_999 ? 40_001 : lastPort + 1;
  return lastPort;
}

export class InMemorySocket extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remoteFamily = 'IPv4';
  readonly localAddress = '127.0.0.1';
  readonly localFamily = 'IPv4';
  readonly localPort: number;
  remotePort = 0;
  /** Always false: there is nothing to connect. */
  readonly connecting = false;
  private peer: InMemorySocket | undefined;
  /** The write waiting for the peer to read what it was given (backpressure). */
  private blockedWrite: (() => void) | undefined;
  private idleMs = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(localPort: number) {
    super({ allowHalfOpen: true });
    this.localPort = localPort;
    this.on('data', () => this.touch());
  }

  /** Joins two ends; bytes written to either are read from the other. */
  static pair(): [client: InMemorySocket, server: InMemorySocket] {
    const client = new InMemorySocket(nextPort());
    const server = new InMemorySocket(nextPort());
    client.peer = server;
    server.peer = client;
    client.remotePort = server.localPort;
    server.remotePort = client.localPort;
    return [client, server];
  }

  address(): { address: string; family: string; port: number } {
    return { address: this.localAddress, family: this.localFamily, port: this.localPort };
  }

  override _read(): void {
    this.peer?.releaseBlockedWrite();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.touch();
    const peer = this.peer;
    if (!peer || peer.destroyed || peer.readableEnded) {
      callback(); // the peer is gone: as on TCP, what is still sent is lost
      return;
    }
    if (peer.push(chunk)) callback();
    else this.blockedWrite = () => callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.peer?.endOfData();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.clearIdleTimer();
    this.releaseBlockedWrite();
    this.peer?.endOfData();
    callback(error);
  }

  /** Emits 'timeout' after `ms` without traffic either way; 0 turns it off. */
  setTimeout(ms: number, onTimeout?: () => void): this {
    this.idleMs = ms;
    if (onTimeout) {
      if (ms === 0) this.removeListener('timeout', onTimeout);
      else this.once('timeout', onTimeout);
    }
    this.touch();
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  /** The peer ended or closed: this end reads its end of data, and closes once it has also ended writing. */
  private endOfData(): void {
    if (!this.destroyed && !this.readableEnded) this.push(null);
  }

  private releaseBlockedWrite(): void {
    const release = this.blockedWrite;
    this.blockedWrite = undefined;
    release?.();
  }

  private touch(): void {
    this.clearIdleTimer();
    if (this.idleMs > 0 && !this.destroyed) {
      this.idleTimer = setTimeout(() => this.emit('timeout'), this.idleMs);
      this.idleTimer.unref();
    }
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
