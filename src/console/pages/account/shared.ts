import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ConsoleSettings } from '../../../config.js';
import type { ConsoleDeps } from '../../context.js';
import { type Html, html } from '../../html.js';
import { bare } from '../../layout.js';
import type { ConsoleRouter } from '../../router.js';
import { cookieOptions } from '../../security.js';
import type { Viewers } from '../../viewers.js';

/** What the account routes share: the app, who is signed in, the store and the clock. */
export interface AccountEnv {
  app: FastifyInstance;
  router: ConsoleRouter;
  h: Viewers;
  deps: ConsoleDeps;
  s: ConsoleSettings;
  now(): Date;
}

/** Only paths of this console: `next` never sends anyone elsewhere. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(next) ? next : '/';
}

/** The form's CSRF token, checked before the handler runs. */
export const guarded = (env: AccountEnv) => ({ preHandler: env.app.csrfProtection });

/**
 * A new session cookie, and no CSRF secret: the next page makes a new one,
 * so no token shown before this sign-in is accepted after it.
 */
export function startSession(env: AccountEnv, reply: FastifyReply, cookie: string): void {
  reply.setCookie(env.h.names.session, cookie, cookieOptions(env.s));
  reply.clearCookie(env.h.names.csrf, cookieOptions(env.s));
}

export const send = (reply: FastifyReply, page: Html, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(page.text);

export const gone = bare(
  'Link not valid',
  html`<h1>This link cannot be used</h1><p>It has expired or was used already. Ask your operator for a new one.</p><p><a href="/login">Sign in</a></p>`,
);
export const problemLine = (problem?: string) =>
  problem ? html`<p class="error" role="alert">${problem}</p>` : '';
