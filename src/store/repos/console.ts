import { and, desc, eq, isNull } from 'drizzle-orm';
import type {
  ConsoleLink,
  ConsoleRepository,
  ConsoleSession,
  ConsoleUser,
  Membership,
} from '../../domain/console/ports.js';
import type { Executor } from '../db.js';
import { first, returned } from '../rows.js';
import {
  consoleLinks,
  consoleMemberships,
  consoleSessions,
  consoleUsers,
} from '../schema/console.js';

export async function findUserByEmail(ex: Executor, email: string): Promise<ConsoleUser | null> {
  return first(ex.select().from(consoleUsers).where(eq(consoleUsers.email, email)));
}

export async function findUser(ex: Executor, id: string): Promise<ConsoleUser | null> {
  return first(ex.select().from(consoleUsers).where(eq(consoleUsers.id, id)));
}

export async function insertUser(ex: Executor, u: ConsoleUser): Promise<ConsoleUser> {
  return returned(ex.insert(consoleUsers).values(u).returning());
}

export async function setPassword(ex: Executor, userId: string, hash: string, at: Date) {
  await ex
    .update(consoleUsers)
    .set({ passwordHash: hash, updatedAt: at })
    .where(eq(consoleUsers.id, userId));
}

export async function listUsers(ex: Executor): Promise<ConsoleUser[]> {
  return ex.select().from(consoleUsers).orderBy(consoleUsers.email).limit(1000);
}

export async function memberships(ex: Executor, userId: string): Promise<Membership[]> {
  const rows = await ex
    .select()
    .from(consoleMemberships)
    .where(eq(consoleMemberships.userId, userId))
    .orderBy(consoleMemberships.createdAt);
  return rows as Membership[];
}

export async function putMembership(ex: Executor, m: Membership): Promise<void> {
  await ex
    .insert(consoleMemberships)
    .values(m)
    .onConflictDoUpdate({
      target: [consoleMemberships.userId, consoleMemberships.orgId],
      set: { role: m.role },
    });
}

export async function removeMembership(ex: Executor, userId: string, orgId: string) {
  const rows = await ex
    .delete(consoleMemberships)
    .where(and(eq(consoleMemberships.userId, userId), eq(consoleMemberships.orgId, orgId)))
    .returning({ userId: consoleMemberships.userId });
  return rows.length > 0;
}

/** Everyone with a role in the organization, with their email. */
export async function orgMembers(ex: Executor, orgId: string) {
  return ex
    .select({ userId: consoleUsers.id, email: consoleUsers.email, role: consoleMemberships.role })
    .from(consoleMemberships)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleMemberships.userId))
    .where(eq(consoleMemberships.orgId, orgId))
    .orderBy(consoleUsers.email);
}

export async function insertSession(ex: Executor, s: ConsoleSession): Promise<void> {
  await ex.insert(consoleSessions).values(s);
}

export async function findSession(ex: Executor, id: string): Promise<ConsoleSession | null> {
  return first(ex.select().from(consoleSessions).where(eq(consoleSessions.id, id)));
}

export async function touchSession(ex: Executor, id: string, at: Date): Promise<void> {
  await ex.update(consoleSessions).set({ lastSeenAt: at }).where(eq(consoleSessions.id, id));
}

export async function endSession(ex: Executor, id: string, at: Date): Promise<void> {
  await ex
    .update(consoleSessions)
    .set({ endedAt: at })
    .where(and(eq(consoleSessions.id, id), isNull(consoleSessions.endedAt)));
}

export async function endUserSessions(ex: Executor, userId: string, at: Date): Promise<number> {
  const rows = await ex
    .update(consoleSessions)
    .set({ endedAt: at })
    .where(and(eq(consoleSessions.userId, userId), isNull(consoleSessions.endedAt)))
    .returning({ id: consoleSessions.id });
  return rows.length;
}

export async function insertLink(ex: Executor, l: ConsoleLink): Promise<void> {
  await ex.insert(consoleLinks).values(l);
}

export async function findLink(ex: Executor, id: string): Promise<ConsoleLink | null> {
  const [l] = await ex.select().from(consoleLinks).where(eq(consoleLinks.id, id));
  return (l as ConsoleLink | undefined) ?? null;
}

export async function useLink(
  ex: Executor,
  id: string,
  userId: string,
  at: Date,
): Promise<boolean> {
  const rows = await ex
    .update(consoleLinks)
    .set({ usedAt: at, usedBy: userId })
    .where(and(eq(consoleLinks.id, id), isNull(consoleLinks.usedAt)))
    .returning({ id: consoleLinks.id });
  return rows.length > 0;
}

export async function listLinks(
  ex: Executor,
  orgId: string | null,
  limit: number,
): Promise<ConsoleLink[]> {
  const rows = await ex
    .select()
    .from(consoleLinks)
    .where(orgId ? eq(consoleLinks.orgId, orgId) : undefined)
    .orderBy(desc(consoleLinks.createdAt))
    .limit(limit);
  return rows as ConsoleLink[];
}

export function createConsoleRepository(): ConsoleRepository {
  return {
    findUserByEmail,
    findUser,
    insertUser,
    setPassword,
    listUsers,
    memberships,
    putMembership,
    removeMembership,
    insertSession,
    findSession,
    touchSession,
    endSession,
    endUserSessions,
    insertLink,
    findLink,
    useLink,
    listLinks,
  };
}
