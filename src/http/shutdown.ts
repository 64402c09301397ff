/**
 * A graceful stop that no client sees as a reset. Once `app.close()` starts (SIGTERM), every new
 * request, on a new or a kept-alive socket, is answered 503 `service_unavailable` with
 * `Retry-After` and `Connection: close`; responses already under way finish and carry
 * `Connection: close`, so their clients drop the socket after reading them. Sockets still open
 * after `drainMs` are idle: Node's `server.close()` then closes them (a FIN, not a reset) and
 * waits for any request still being read. `server.close()` also stops Node's request timeouts, so
 * a request still unfinished `requestTimeoutMs` later is cut off: a slow client cannot hold the
 * stop.
 */
import type { Socket } from 'node:net';
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
    if (!app.server.listening || sockets.size === 0) return;
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
