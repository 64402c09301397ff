import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Value } from 'typebox/value';
import { WebhookSender } from '../../src/adapters/webhook-sender.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../../src/config.js';
import type { EventType } from '../../src/domain/webhooks/events.js';
import { eventSchema } from '../../src/domain/webhooks/schemas.js';
import { type DeliveryOptions, WebhookWorker } from '../../src/workers/webhooks.js';
import { adminCall, type Harness } from './harness.js';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Wall-clock milliseconds when the request arrived. */
  at: number;
}

/**
 * A local webhook receiver on an ephemeral port. `answer` decides each response from the count
 * of requests so far (1 for the first); 'hang' never answers.
 */
export class Receiver {
  readonly received: Received[] = [];
  private server: http.Server;
  private readonly hanging = new Set<http.ServerResponse>();
  url = '';

  constructor(public answer: (n: number, r: Received) => number | 'hang' = () => 200) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = { headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() };
        this.received.push(r);
        const status = this.answer(this.received.length, r);
        if (status === 'hang') {
          this.hanging.add(res);
          return;
        }
        res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
      });
    });
  }

  async start(path = '/hook'): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
    return this;
  }

  /** The bodies received, each checked against its published schema. */
  bodies(): any[] {
    return this.received.map((r) => {
      const body = JSON.parse(r.body);
      checkEventSchema(body);
      return body;
    });
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    this.server.close();
  }
}

export const TEST_WEBHOOK_SETTINGS: WebhookSettings = {
  ...DEFAULT_WEBHOOK_SETTINGS,
  allowPrivateTargets: true,
};

/** Lets the harness's admin API accept local receivers (as WEBHOOK_ALLOW_PRIVATE_TARGETS=1). */
export function allowPrivateTargets(h: Harness): void {
  h.deps.webhooks = TEST_WEBHOOK_SETTINGS;
}

export function webhookWorker(
  h: Harness,
  options: Partial<DeliveryOptions> = {},
  send: Partial<{ timeoutMs: number; allowPrivate: boolean }> = {},
) {
  const sender = new WebhookSender({
    timeoutMs: send.timeoutMs ?? 5_000,
    maxResponseBytes: 256,
    allowPrivate: send.allowPrivate ?? true,
  });
  const worker = new WebhookWorker(
    {
      repos: h.deps.repos,
      sender,
      clock: h.clock,
      logger: pino({ level: 'silent' }),
      metrics: h.deps.metrics,
    },
    { backoffBaseMs: 10_000, backoffMaxMs: 3_600_000, maxAttempts: 8, ...options },
  );
  return { worker, sender };
}

export async function createWebhook(
  h: Harness,
  orgId: string,
  url: string,
  events: string[] = ['*'],
) {
  return adminCall(h, 'POST', `/admin/orgs/${orgId}/webhooks`, { url, events });
}

/** Throws unless the body matches its type's published JSON Schema. */
export function checkEventSchema(body: { type: EventType }): void {
  const schema = eventSchema(body.type);
  const value: unknown = body;
  if (!Value.Check(schema, value)) {
    const errors = [...Value.Errors(schema, value)].slice(0, 5);
    throw new Error(`${body.type} does not match its schema: ${JSON.stringify(errors)}`);
  }
}
