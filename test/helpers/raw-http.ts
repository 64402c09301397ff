import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A client socket that records what it receives and how it ends, for HTTP-layer tests. */
export class RawClient {
  readonly socket: Socket;
  private data = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  /** Set when the server ends the socket (a FIN). */
  ended = false;
  closed = false;
  /** The socket error, if any: a reset shows up here as ECONNRESET. */
  error: NodeJS.ErrnoException | undefined;
  readonly closedAt: Promise<number>;

  private constructor(socket: Socket) {
    this.socket = socket;
    const wake = () => {
      for (const w of this.waiters.splice(0)) w();
    };
    socket.on('data', (chunk: Buffer) => {
      this.data = Buffer.concat([this.data, chunk]);
      wake();
    });
    socket.on('end', () => {
      this.ended = true;
      wake();
    });
    socket.on('error', (err) => {
      this.error = err;
    });
    this.closedAt = new Promise((resolve) =>
      socket.on('close', () => {
        this.closed = true;
        wake();
        resolve(performance.now());
      }),
    );
  }

  static async open(port: number): Promise<RawClient> {
    const socket = connect({ port, host: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawClient(socket);
  }

  write(text: string | Buffer): void {
    this.socket.write(text);
  }

  /**
   * The next complete response (status line, headers, Content-Length body); fails after `ms`.
   * A hang detector, not a speed check: 20 s, under the test's 30, so that a machine loaded by
   * other work (a CI run beside other jobs once took more than 5 s) is not read as a hang.
   */
  async response(ms = 20_000): Promise<RawResponse> {
    const deadline = performance.now() + ms;
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.closed || this.ended)
        throw new Error(`socket ended before a response: ${this.data}`);
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no response within ${ms} ms: ${this.data}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private take(): RawResponse | undefined {
    const end = this.data.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = this.data.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const i = line.indexOf(':');
      headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.data.length < end + 4 + length) return undefined;
    const body = this.data.subarray(end + 4, end + 4 + length).toString('utf8');
    this.data = this.data.subarray(end + 4 + length);
    return { status: Number(statusLine?.split(' ')[1]), headers, body };
  }

  /** Resolves once the socket is closed; fails after `ms`. */
  async waitClosed(ms = 5_000): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([this.closedAt, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A request's head, with Host and the given headers. */
export function head(
  method: string,
  path: string,
  headers: Record<string, string | number> = {},
): string {
  const lines = Object.entries({ host: 'localhost', ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}
