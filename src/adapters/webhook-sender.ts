import http from 'node:http';
import https from 'node:https';
import { literalProblem } from '../domain/webhooks/targets.js';
import { guardedLookup } from './webhook-targets.js';

export interface SendOptions {
  timeoutMs: number;
  /** Bytes of the answer read (and kept as its head); the rest is not read. */
  maxResponseBytes: number;
  allowPrivate: boolean;
}

export interface SendResult {
  /** Null when no answer came (refused target, connection error, timeout). */
  status: number | null;
  head: string | null;
  error: string | null;
  latencyMs: number;
}

/**
 * POSTs one signed webhook. Connections go through a lookup that refuses non-public addresses
 * (src/domain/webhooks/targets.ts); redirects are not followed (a 3xx is a failed attempt);
 * the whole exchange has one deadline; at most `maxResponseBytes` of the answer are read.
 */
export class WebhookSender {
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(private readonly o: SendOptions) {
    const lookup = guardedLookup(o.allowPrivate);
    // Keep-alive: a busy endpoint gets its events over a few warm connections.
    this.agents = {
      http: new http.Agent({ keepAlive: true, lookup }),
      https: new https.Agent({ keepAlive: true, lookup }),
    };
  }

  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const done = (r: Omit<SendResult, 'latencyMs'>): SendResult => ({
      ...r,
      latencyMs: Math.round(performance.now() - started),
    });
    const refused = literalProblem(url, this.o.allowPrivate);
    if (refused) return Promise.resolve(done({ status: null, head: null, error: refused.message }));
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(r));
      };
      const req = (secure ? https : http).request(
        target,
        {
          method: 'POST',
          agent: secure ? this.agents.https : this.agents.http,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'call-tracking-webhooks/0.1',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const answer = () => {
            const head = Buffer.concat(chunks).subarray(0, this.o.maxResponseBytes);
            finish({ status: res.statusCode ?? null, head: head.toString('utf8'), error: null });
          };
          res.on('data', (c: Buffer) => {
            chunks.push(c);
            size += c.length;
            if (size >= this.o.maxResponseBytes) {
              answer();
              res.destroy();
            }
          });
          res.on('end', answer);
          res.on('error', answer);
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        finish({ status: null, head: null, error: `no answer within ${this.o.timeoutMs} ms` });
      }, this.o.timeoutMs);
      req.on('error', (err) => finish({ status: null, head: null, error: err.message }));
      req.end(body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
