/**
 * A graceful stop that no client sees as a reset. Once `app.close()` starts (SIGTERM), the port
 * stops accepting connections (new ones are refused, never reset), and every new request on a
 * kept-alive socket is answered 503 `service_unavailable` with
 * `Retry-After` and `Connection: close`; responses already under way finish and carry
 * `Connection: close`, so their clients drop the socket after reading them. Sockets still open
 * after `drainMs` are idle: Node's `server.close()` then closes them (a FIN, not a reset) and
 * waits for any request still being read. `server.close()` also stops Node's request timeouts, so
 * a request still unfinished `requestTimeoutMs` later is cut off: a slow client cannot hold the
 * stop.
 */
import { Server, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.js';

export function installGracefulClose(
  app: FastifyInstance,
  drainMs: number,
  requestTimeoutMs: number,
): void {
  let draining = false;
  const sockets = new Set<Socket>();
  let onEmpty: (() => void) | undefined;
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) onEmpty?.();
    });
  });
  // First of all hooks: a stopping process answers before authenticating or reading the body.
  app.addHook('onRequest', async () => {
    if (draining) throw errors.shuttingDown();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (draining) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('preClose', async () => {
    draining = true;
    if (!app.server.listening) return;
    // The port closes first, and only the port: a client (a load balancer's pool) dials another
    // process at once instead of reaching this one in the drain, and no connection is left in
    // the listen queue to be reset when the port closes at the end. Node's http server.close()
    // would also destroy the idle keep-alive sockets now, resetting any whose next request is
    // already on the wire; the drain answers those with a 503 and `Connection: close` instead.
    Server.prototype.close.call(app.server);
    if (sockets.size === 0) return;
    const cutOff = setTimeout(() => app.server.closeAllConnections(), drainMs + requestTimeoutMs);
    cutOff.unref();
    app.server.once('close', () => clearTimeout(cutOff));
    if (drainMs <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, drainMs);
      onEmpty = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  });
}
