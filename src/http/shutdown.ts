/**
 * A graceful stop that no client sees as a reset. Once `app.close()` starts (SIGTERM), /readyz
 * says the process is stopping, and the port accepts what the kernel already queued for it (a
 * connection still queued when the port closes is reset) and then closes: new connections are
 * refused, never reset. Every new request on a kept-alive socket is then answered 503
 * `service_unavailable` with `Retry-After` and `Connection: close`; responses already under way
 * finish and carry `Connection: close`, so their clients drop the socket after reading them.
 * Sockets still open after `drainMs` are idle: Node's `server.close()` then closes them (a FIN,
 * not a reset) and waits for any request still being read. `server.close()` also stops Node's
 * request timeouts, so a request still unfinished `requestTimeoutMs` later is cut off: a slow
 * client cannot hold the stop.
 */
import { Server, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.js';
import { queuedConnections } from './listen-queue.js';

/** The longest a stop waits for the kernel's listen queue to be accepted before closing the port. */
export const ACCEPT_QUEUE_MS = 5_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

// Long on purpose: the hooks and the wrapped close share the stop's state (draining, stopping,
// the open sockets), and each step's reason is written where it happens.
export function installGracefulClose(
  app: FastifyInstance,
  drainMs: number,
  requestTimeoutMs: number,
): void {
  let draining = false;
  let stopping = false;
  const sockets = new Set<Socket>();
  let accepted = 0;
  let onEmpty: (() => void) | undefined;
  app.server.on('connection', (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) onEmpty?.();
    });
  });
  // First of all hooks: a stopping process answers before authenticating or reading the body.
  // While the port still accepts what is queued (below), readiness already says the process is
  // stopping, so a load balancer stops sending it new connections.
  app.addHook('onRequest', async (request) => {
    if (draining || (stopping && request.routeOptions.url === '/readyz'))
      throw errors.shuttingDown();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (draining) reply.header('connection', 'close');
    return payload;
  });

  // The port closes first, and only the port: a client (a load balancer's pool) dials another
  // process at once instead of reaching this one in the drain. Node's http server.close() would
  // also destroy the idle keep-alive sockets now, resetting any whose next request is already on
  // the wire; the drain answers those with a 503 and `Connection: close` instead.
  const stopAccepting = () => {
    if (draining) return;
    draining = true;
    if (!app.server.listening) return;
    Server.prototype.close.call(app.server);
    const cutOff = setTimeout(() => app.server.closeAllConnections(), drainMs + requestTimeoutMs);
    cutOff.unref();
    app.server.once('close', () => clearTimeout(cutOff));
  };
  // Before Fastify's own close starts: from its first step it sends `Connection: close` on every
  // answer, but it runs preClose hooks only some turns of the event loop later. A client told to
  // reconnect in between would find the port still open, and a connection still in the listen
  // queue when the port closes is reset by the kernel: the port must close before any answer
  // tells a client to reconnect.
  //
  // Nor while connections wait in the listen queue: the kernel completes a connection before the
  // process accepts it, and a process whose event loop is busy (PGlite runs its queries there)
  // can leave some of a load balancer's kept-alive connections unaccepted for seconds. Closing
  // the port would reset them. So the port stays open, with keep-alive answers as usual (nothing
  // tells a client to dial again yet), until the kernel's queue is empty (Linux says; elsewhere,
  // until a turn of the event loop accepted nothing). A busy embedded store accepts about one
  // connection per query it runs (15-25 a second on 2 loaded cores), hence a bound of its own.
  const acceptQueued = async () => {
    stopping = true;
    const started = Date.now();
    const deadline = started + ACCEPT_QUEUE_MS;
    const atStop = queuedConnections(app.server);
    let seen = -1;
    while (app.server.listening && Date.now() < deadline) {
      const queued = queuedConnections(app.server);
      if (queued === 0) break;
      if (queued === undefined) {
        if (accepted === seen) break;
        seen = accepted;
      }
      // A timer, not setImmediate: the loop polls (and accepts) before it runs.
      await new Promise<void>((resolve) => setTimeout(resolve, 1));
    }
    const left = queuedConnections(app.server);
    if (left) app.log.warn({ queued: left }, 'port closing with connections still queued');
    else if (atStop)
      app.log.info({ queued: atStop, ms: Date.now() - started }, 'accept queue drained');
  };
  const fastifyClose = app.close.bind(app);
  app.close = ((...args: Parameters<typeof fastifyClose>) => {
    const closing = acceptQueued().then(() => {
      stopAccepting();
      return fastifyClose();
    });
    const [done] = args as unknown[];
    if (typeof done !== 'function') return closing;
    closing.then(
      () => done(),
      (err: unknown) => done(err),
    );
    return app;
  }) as typeof app.close;

  app.addHook('preClose', async () => {
    stopAccepting();
    if (sockets.size === 0) return;
    if (drainMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainMs);
        onEmpty = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    // Sockets left are about to be closed if idle: first a turn of the event loop to read what
    // has arrived, so a request already received is answered (503) rather than reset.
    await nextTurn();
    // For the operator (and test/e2e/graceful-stop-load.test.ts): what the drain leaves to close.
    const open = [...sockets];
    const busy = open.filter((s) => (s as { _httpMessage?: unknown })._httpMessage).length;
    app.log.info({ open: open.length, busy, accepted }, 'drain over');
  });
}
