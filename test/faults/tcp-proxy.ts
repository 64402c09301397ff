import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL or Redis, to cause outages for real:
 * `cut()` resets every open connection and refuses new ones (the port is
 * closed, as when the service stops); `freeze()` keeps every connection open
 * and accepts new ones but forwards nothing (a hung server, a network
 * partition); `restore()` ends either and listens again on the same port.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  private frozen = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(target: string): Promise<TcpProxy> {
    const u = new URL(target);
    const proxy = new TcpProxy(u.hostname, Number(u.port));
    await proxy.listen();
    return proxy;
  }

  /** `target` with its host and port replaced by the proxy's. */
  url(target: string): string {
    const u = new URL(target);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  private async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      client.on('close', () => this.pairs.delete(pair));
      if (this.frozen) return;
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.resetAndDestroy();
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  /** Forwards nothing more, in either direction, on open or new connections. */
  freeze(): void {
    this.frozen = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
    }
  }

  /**
   * New connections are forwarded again, but those open during the freeze stay silent and are
   * never reset: what a partition that lost the connections' state, or a failover behind the
   * same address, leaves to a client. Only a client that dials again gets answers.
   */
  heal(): void {
    // The frozen pairs were unpiped by freeze() (or never piped): they stay as they are.
    this.frozen = false;
  }

  async restore(): Promise<void> {
    if (this.frozen) {
      this.frozen = false;
      for (const s of this.sockets) s.resetAndDestroy();
    }
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
