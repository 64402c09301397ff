import { createHash, randomBytes } from 'node:crypto';
import { errors } from '../../errors.js';
import { newId } from '../ids.js';
import type { Executor } from '../ports.js';
import type { RateLimiter } from '../rate-limit/limiter.js';
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import type {
  ConsoleLink,
  ConsoleRepos,
  ConsoleSession,
  ConsoleUser,
  LinkRole,
  Membership,
} from './ports.js';

export interface SessionPolicy {
  /** A session unused this long is over. */
  idleMs: number;
  /** A session this old is over, however busy. */
  absoluteMs: number;
  /** Invitation and reset links stop working after this. */
  linkMs: number;
}

/** The policy from the console's settings (CONSOLE_SESSION_IDLE_MINUTES and the rest). */
export const sessionPolicy = (settings: {
  idleMinutes: number;
  maxHours: number;
  linkHours: number;
}): SessionPolicy => ({
  idleMs: settings.idleMinutes * 60_000,
  absoluteMs: settings.maxHours * 3_600_000,
  linkMs: settings.linkHours * 3_600_000,
});

/** Login attempts per window: per account (the email typed) and per client address. */
export const LOGIN_LIMITS = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 } as const;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const token = () => randomBytes(32).toString('base64url');

export const actorOf = (user: Pick<ConsoleUser, 'email'>) => `console:${user.email}`;

function insertUser(
  repos: ConsoleRepos,
  ex: Executor,
  email: string,
  passwordHash: string,
  role: LinkRole,
  at: Date,
): Promise<ConsoleUser> {
  return repos.console.insertUser(ex, {
    id: newId('usr', at.getTime()),
    email,
    passwordHash,
    operator: role === 'operator',
    createdAt: at,
    updatedAt: at,
  });
}

/** Makes a person a member of `orgId` in `role`; an operator sees every organization without. */
async function joinOrg(
  repos: ConsoleRepos,
  ex: Executor,
  userId: string,
  orgId: string | null,
  role: LinkRole,
  at: Date,
): Promise<void> {
  if (role === 'operator' || !orgId) return;
  await repos.console.putMembership(ex, { userId, orgId, role, createdAt: at });
}

export async function createUser(
  repos: ConsoleRepos,
  input: { email: string; password: string; role: LinkRole; orgId?: string | null },
  actor: string,
  at: Date,
  requestId: string | null = null,
): Promise<ConsoleUser> {
  const problem = passwordProblem(input.password);
  if (problem) throw errors.field(['body', 'password'], problem, '');
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  return repos.transaction(async (tx) => {
    if (await repos.console.findUserByEmail(tx, email)) throw errors.conflict('email_taken');
    const user = await insertUser(repos, tx, email, passwordHash, input.role, at);
    await joinOrg(repos, tx, user.id, input.orgId ?? null, input.role, at);
    await repos.audit.writeAudit(tx, {
      orgId: input.role === 'operator' ? null : (input.orgId ?? null),
      actor,
      action: 'console_user.created',
      subjectType: 'console_user',
      subjectId: user.id,
      detail: { email, role: input.role },
      requestId,
      at,
    });
    return user;
  });
}

export type LoginResult =
  | { ok: true; cookie: string; user: ConsoleUser }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/**
 * Checks an email and password. Unknown emails run scrypt against a decoy
 * hash and get the same answer as a wrong password. Every attempt counts
 * against the account typed and the client's address (so a correct password
 * does not slip through a throttled window either).
 */
export async function login(
  repos: ConsoleRepos,
  limiter: RateLimiter,
  policy: SessionPolicy,
  input: { email: string; password: string; address: string },
  now: Date,
): Promise<LoginResult> {
  const email = normalizeEmail(input.email);
  const ms = now.getTime();
  const [account, address] = await Promise.all([
    limiter.hit(
      `console-login:account:${email}`,
      LOGIN_LIMITS.perAccount,
      ms,
      LOGIN_LIMITS.windowMs,
    ),
    limiter.hit(
      `console-login:address:${input.address}`,
      LOGIN_LIMITS.perAddress,
      ms,
      LOGIN_LIMITS.windowMs,
    ),
  ]);
  if (!account.allowed || !address.allowed) {
    const retryAfterSeconds = Math.max(
      account.allowed ? 0 : account.retryAfterSeconds,
      address.allowed ? 0 : address.retryAfterSeconds,
    );
    return { ok: false, reason: 'throttled', retryAfterSeconds };
  }
  const user = await repos.console.findUserByEmail(repos.db, email);
  const good = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !good) {
    await repos.audit.writeAudit(repos.db, {
      orgId: null,
      actor: `console:${email}`,
      action: 'console_login.failed',
      subjectType: 'console_user',
      subjectId: user?.id ?? 'unknown',
      detail: { address: input.address },
      at: now,
    });
    return { ok: false, reason: 'invalid' };
  }
  const cookie = await openSession(repos, policy, user, now);
  return { ok: true, cookie, user };
}

async function openSession(
  repos: ConsoleRepos,
  policy: SessionPolicy,
  user: ConsoleUser,
  now: Date,
): Promise<string> {
  const secret = token();
  await repos.transaction(async (tx) => {
    await repos.console.insertSession(tx, {
      id: sha256(secret),
      userId: user.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + policy.absoluteMs),
      endedAt: null,
    });
    await repos.audit.writeAudit(tx, {
      orgId: null,
      actor: actorOf(user),
      action: 'console_login.succeeded',
      subjectType: 'console_user',
      subjectId: user.id,
      at: now,
    });
  });
  return secret;
}

export interface Viewer {
  user: ConsoleUser;
  session: ConsoleSession;
  memberships: Membership[];
}

/** The signed-in person behind a cookie, or null (unknown, ended, idle or too old). */
export async function resolveSession(
  repos: ConsoleRepos,
  policy: SessionPolicy,
  cookie: string | undefined,
  now: Date,
): Promise<Viewer | null> {
  if (!cookie || cookie.length > 100) return null;
  const session = await repos.console.findSession(repos.db, sha256(cookie));
  if (!session || session.endedAt) return null;
  const ms = now.getTime();
  if (ms >= session.expiresAt.getTime()) return null;
  if (ms >= session.lastSeenAt.getTime() + policy.idleMs) return null;
  const user = await repos.console.findUser(repos.db, session.userId);
  if (!user) return null;
  // The idle clock is exact to the second: a session ends idleMs after its
  // last request, give or take under a second, at the cost of one small write
  // per second of use at most.
  if (ms - session.lastSeenAt.getTime() >= 1000) {
    await repos.console.touchSession(repos.db, session.id, now);
    session.lastSeenAt = now;
  }
  return { user, session, memberships: await repos.console.memberships(repos.db, user.id) };
}

export async function logout(repos: ConsoleRepos, v: Viewer, everywhere: boolean, now: Date) {
  await repos.transaction(async (tx) => {
    if (everywhere) await repos.console.endUserSessions(tx, v.user.id, now);
    else await repos.console.endSession(tx, v.session.id, now);
    await repos.audit.writeAudit(tx, {
      orgId: null,
      actor: actorOf(v.user),
      action: everywhere ? 'console_logout.everywhere' : 'console_logout',
      subjectType: 'console_user',
      subjectId: v.user.id,
      at: now,
    });
  });
}

/** An invitation (a new person, or a new organization for an existing one) or a reset link. */
export async function createLink(
  repos: ConsoleRepos,
  policy: SessionPolicy,
  input: { kind: ConsoleLink['kind']; email: string; role: LinkRole; orgId: string | null },
  actor: string,
  now: Date,
  requestId: string | null = null,
): Promise<{ token: string; link: ConsoleLink }> {
  const secret = token();
  const link: ConsoleLink = {
    id: sha256(secret),
    kind: input.kind,
    email: normalizeEmail(input.email),
    orgId: input.role === 'operator' ? null : input.orgId,
    role: input.role,
    createdBy: actor,
    createdAt: now,
    expiresAt: new Date(now.getTime() + policy.linkMs),
    usedAt: null,
    usedBy: null,
  };
  await repos.transaction(async (tx) => {
    if (input.kind === 'reset' && !(await repos.console.findUserByEmail(tx, link.email)))
      throw errors.conflict('no_such_user');
    await repos.console.insertLink(tx, link);
    await repos.audit.writeAudit(tx, {
      orgId: link.orgId,
      actor,
      action: input.kind === 'reset' ? 'console_reset_link.created' : 'console_invitation.created',
      subjectType: 'console_link',
      subjectId: link.id.slice(0, 16),
      detail: { email: link.email, role: link.role, expires_at: link.expiresAt.toISOString() },
      requestId,
      at: now,
    });
  });
  return { token: secret, link };
}

/** A link that may still be used, or null. */
export async function openLink(repos: ConsoleRepos, secret: string, now: Date) {
  if (!secret || secret.length > 100) return null;
  const link = await repos.console.findLink(repos.db, sha256(secret));
  if (!link || link.usedAt || link.expiresAt.getTime() <= now.getTime()) return null;
  return link;
}

/** Who uses a link: a new password (a reset, a new person) or the account signed in. */
export type LinkUser = { password: string } | { account: ConsoleUser };

class LinkGone extends Error {}

/**
 * Uses a link. A reset sets a new password and ends every session of the
 * person. An invitation for an email without an account creates it with the
 * password given; for an email with an account, only that account, signed
 * in, accepts it (`sign_in`: nothing written), so nobody joins an
 * organization without knowing its password. Null: the link is gone.
 */
export async function useLink(
  repos: ConsoleRepos,
  secret: string,
  by: LinkUser,
  now: Date,
): Promise<ConsoleUser | null | 'sign_in'> {
  if ('password' in by) {
    const problem = passwordProblem(by.password);
    if (problem) throw errors.field(['body', 'password'], problem, '');
  }
  const link = await openLink(repos, secret, now);
  if (!link) return null;
  const hash = 'password' in by ? await hashPassword(by.password) : null;
  try {
    return await repos.transaction(async (tx) => {
      let user = await repos.console.findUserByEmail(tx, link.email);
      if (link.kind === 'reset') {
        if (!user || hash === null) return null;
        await repos.console.setPassword(tx, user.id, hash, now);
        await repos.console.endUserSessions(tx, user.id, now);
      } else if (user) {
        if (!('account' in by) || by.account.id !== user.id) return 'sign_in';
      } else {
        if (hash === null) return 'sign_in';
        user = await insertUser(repos, tx, link.email, hash, link.role, now);
      }
      if (!(await repos.console.useLink(tx, link.id, user.id, now))) throw new LinkGone();
      if (link.kind === 'invitation') await joinOrg(repos, tx, user.id, link.orgId, link.role, now);
      await repos.audit.writeAudit(tx, {
        orgId: link.orgId,
        actor: actorOf(user),
        action: link.kind === 'reset' ? 'console_password.reset' : 'console_invitation.accepted',
        subjectType: 'console_user',
        subjectId: user.id,
        detail: {
          email: user.email,
          role: link.role,
          link: link.id.slice(0, 16),
          invited_by: link.createdBy,
        },
        at: now,
      });
      return user;
    });
  } catch (err) {
    // Two tabs, one link: the other one used it first, and this one wrote nothing.
    if (err instanceof LinkGone) return null;
    throw err;
  }
}

/** Opens a session for a person who just set their password through a link. */
export const signInAfterLink = (
  repos: ConsoleRepos,
  policy: SessionPolicy,
  user: ConsoleUser,
  now: Date,
) => openSession(repos, policy, user, now);
