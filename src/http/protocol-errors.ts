/**
 * Responses the HTTP layer makes before any route runs (malformed requests, headers or request
 * line too large, timeouts, bad URL encoding) in the spec's `{"detail":"<code>"}` shape, where
 * Node and Fastify would write their own `{"error":…,"code":"FST_…"}` bodies.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { type AppError, errors } from '../errors.js';
import { dumpsPy } from './pydantic/index.js';

/** Node's default `maxHeaderSize`: the request line and every header together. */
export const MAX_HEADER_BYTES = 16 * 1024;

interface ClientError extends Error {
  code?: string;
  /** The chunk the parser was reading when it failed (Fastify's type says otherwise). */
  rawPacket?: unknown;
}

/**
 * Node reports a request line over the header budget as a header overflow. A chunk that starts
 * with a request line using most of the budget on its own is called what it is, a URI too long;
 * a long URI split over several chunks still gets 431, in the same shape.
 */
function requestLineTooLong(raw: unknown): boolean {
  if (!Buffer.isBuffer(raw) || !/^[A-Z]{3,10} /.test(raw.subarray(0, 11).toString('latin1')))
    return false;
  const end = raw.indexOf('\r\n');
  return (end < 0 ? raw.length : end) > MAX_HEADER_BYTES / 2;
}

export function clientErrorFor(err: ClientError): AppError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errors.requestTimeout();
    case 'HPE_HEADER_OVERFLOW':
      return requestLineTooLong(err.rawPacket)
        ? errors.uriTooLong()
        : errors.headerFieldsTooLarge();
    default:
      return errors.badRequest();
  }
}

/** The whole HTTP/1.1 response for `e`, written straight to a socket that no request owns. */
export function rawResponse(error: AppError): string {
  const body = dumpsPy({ detail: error.code });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': randomUUID(),
    ...error.headers,
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${lines.join('')}\r\n${body}`;
}

/**
 * Fastify's `clientErrorHandler`: Node found the request malformed or too slow (headers past
 * `headersTimeout`, the whole request past `requestTimeout`). Answers in the spec's shape, then
 * closes the socket, as Node does, so a slow client cannot hold it.
 */
export function clientErrorHandler(logger: Logger) {
  return (err: ClientError, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const e = clientErrorFor(err);
    logger.info({ code: err.code, status: e.status, remote: socket.remoteAddress }, 'client error');
    // A response already under way on this socket cannot be followed by a second one.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) socket.write(rawResponse(e));
    socket.destroy();
  };
}

/** Fastify's `frameworkErrors`: a URL that does not decode, or a path parameter over its limit. */
export function frameworkErrors(
  send: (reply: FastifyReply, e: AppError) => FastifyReply,
): (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (err, request, reply) => {
    reply.header('x-request-id', request.id);
    if (err.code === 'FST_ERR_BAD_URL') send(reply, errors.invalidUrlEncoding());
    else if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') send(reply, errors.uriTooLong());
    else {
      request.log.error({ err }, 'router error');
      send(reply, errors.internal());
    }
  };
}
