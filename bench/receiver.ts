import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A receiver in the bench parent: webhooks (204 at once), and a Google Ads stand-in for the
 * conversions row (an OAuth token endpoint, and uploadClickConversions answering after
 * `googleLatencyMs` like a distant API). `count` is what arrived: webhook requests, or
 * conversions (a batch of 2,000 counts 2,000).
 */
export class BenchReceiver {
  count = 0;
  url = '';
  base = '';
  googleLatencyMs = 50;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      if (path.startsWith('/google-oauth/token')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'bench-token', expires_in: 3600 }));
        return;
      }
      if (path.endsWith(':uploadClickConversions')) {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { conversions: unknown[] };
        setTimeout(() => {
          this.count += body.conversions.length;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ results: body.conversions.map(() => ({})) }));
        }, this.googleLatencyMs);
        return;
      }
      this.count++;
      res.writeHead(204).end();
    });
  });

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.url = `${this.base}/bench-hook`;
    return this;
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}
