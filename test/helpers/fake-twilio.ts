import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: Record<string, string>;
}

type Answer = { status: number; body: unknown } | 'hang' | 'reset';

/**
 * A local stand-in for Twilio's REST API on 127.0.0.1:0: records every request and answers from
 * a script (by default 201 with a fresh sid, as Twilio creates a call or message).
 */
export class FakeTwilio {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private seq = 0;
  script: (req: RecordedRequest, n: number) => Answer = (req) => ({
    status: 201,
    body: {
      sid: `${req.path.includes('/Messages') ? 'SM' : 'CA'}${String(++this.seq).padStart(32, '0')}`,
      status: 'queued',
    },
  });

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString('utf8');
    });
    req.on('end', () => {
      const rec: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        form: Object.fromEntries(new URLSearchParams(raw)),
      };
      this.requests.push(rec);
      const answer = this.script(rec, this.requests.length);
      if (answer === 'hang') return;
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  }
}
