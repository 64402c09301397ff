import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook receiver in the bench parent: answers 204 at once and counts what it got. */
export class BenchReceiver {
  count = 0;
  url = '';
  private readonly server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      this.count++;
      res.writeHead(204).end();
    });
  });

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/bench-hook`;
    return this;
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}
