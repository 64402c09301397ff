import type { FastifyInstance } from 'fastify';
import { AppError, errors, ValidationFailed } from '../errors.js';
import { type Html, html } from './html.js';
import { bare } from './layout.js';
import { isCsrfRefusal } from './security.js';

const MESSAGES: Record<number, [string, string]> = {
  400: ['Bad request', 'The request could not be read.'],
  403: ['Not allowed', 'Your role in this organization does not allow this change.'],
  404: ['Not found', 'There is nothing here, or it is not yours to see.'],
  409: ['Conflict', 'That clashes with something that exists already.'],
  422: ['Check the form', 'Some of what was entered cannot be used.'],
  429: ['Too many requests', 'Wait a little and try again.'],
  503: ['Unavailable', 'The service cannot answer right now; try again in a moment.'],
};

function errorPage(status: number, detail: string[] = []): Html {
  const [title, text] = MESSAGES[status] ?? ['Something went wrong', 'The error has been logged.'];
  return bare(
    title,
    html`<h1>${title}</h1><p>${text}</p>${
      detail.length ? html`<ul class="problems">${detail.map((d) => html`<li>${d}</li>`)}</ul>` : ''
    }<p><a href="/">Back to the console</a></p>`,
  );
}

/** The status and the lines under it that an error is shown with. */
function shownAs(thrown: unknown): { status: number; detail: string[] } {
  const err = isCsrfRefusal(thrown) ? errors.invalidCsrfToken() : thrown;
  if (err instanceof AppError) {
    if (err.code === 'invalid_csrf_token')
      return {
        status: err.status,
        detail: ['The form was stale or came from elsewhere. Reload the page and try again.'],
      };
    if (err.code === 'conflict')
      return { status: err.status, detail: [String(err.extra.reason ?? '')] };
    return { status: err.status, detail: [] };
  }
  if (err instanceof ValidationFailed)
    return {
      status: 422,
      detail: err.errors.map(
        (e) => `${String(e.loc.at(-1))}: ${e.msg.replace(/^Value error, /, '')}`,
      ),
    };
  return { status: (err as { statusCode?: number }).statusCode === 413 ? 413 : 500, detail: [] };
}

/** Every error, and a path that leads nowhere, answers a page of the console, not JSON. */
export function installErrorPages(app: FastifyInstance): void {
  app.setNotFoundHandler(async (_req, reply) =>
    reply.code(404).type('text/html; charset=utf-8').send(errorPage(404).text),
  );
  app.setErrorHandler(async (err, req, reply) => {
    if (err instanceof AppError)
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    const { status, detail } = shownAs(err);
    if (status >= 500) req.log.error({ err }, 'console request failed');
    return reply.code(status).type('text/html; charset=utf-8').send(errorPage(status, detail).text);
  });
}
