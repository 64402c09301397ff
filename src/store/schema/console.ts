import { boolean, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, ts } from './columns.js';
import { orgs, ownOrg } from './index.js';

/** People who sign in to the web console (migration 0023, docs/console.md). */
export const consoleUsers = pgTable(
  'console_users',
  {
    id: text('id').primaryKey(),
    /** Lower case: the unique index is the one place two spellings of an address meet. */
    email: text('email').notNull(),
    /** `scrypt$N$r$p$salt$hash` (src/domain/console/passwords.ts). */
    passwordHash: text('password_hash').notNull(),
    operator: boolean('operator').notNull().default(false),
    ...timestamps(),
  },
  (t) => [uniqueIndex('console_users_email_key').on(t.email)],
);

export const consoleMemberships = pgTable(
  'console_memberships',
  {
    userId: text('user_id')
      .notNull()
      .references(() => consoleUsers.id),
    orgId: ownOrg(),
    /** manager | viewer */
    role: text('role').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    // Named as PostgreSQL named the migration's PRIMARY KEY (the drift test compares them).
    primaryKey({ name: 'console_memberships_pkey', columns: [t.userId, t.orgId] }),
    index('console_memberships_org_idx').on(t.orgId),
  ],
);

/** Server-side sessions: the id is the SHA-256 of the cookie's token. */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => consoleUsers.id),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    /** The absolute end; the idle end is last_seen_at plus the idle limit. */
    expiresAt: ts('expires_at').notNull(),
    endedAt: ts('ended_at'),
  },
  (t) => [index('console_sessions_user_idx').on(t.userId)],
);

/** Invitation and password-reset links: the id is the SHA-256 of the link's token. */
export const consoleLinks = pgTable(
  'console_links',
  {
    id: text('id').primaryKey(),
    /** invitation | reset */
    kind: text('kind').notNull(),
    email: text('email').notNull(),
    orgId: text('org_id').references(() => orgs.id),
    /** operator | manager | viewer */
    role: text('role').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    /** The account that used it. */
    usedBy: text('used_by').references(() => consoleUsers.id),
  },
  (t) => [index('console_links_org_idx').on(t.orgId, t.createdAt)],
);
