import type { AuditLog, Executor, UnitOfWork } from '../ports.js';

export const CONSOLE_ROLES = ['manager', 'viewer'] as const;
export type OrgRole = (typeof CONSOLE_ROLES)[number];
export const LINK_ROLES = ['operator', ...CONSOLE_ROLES] as const;
export type LinkRole = (typeof LINK_ROLES)[number];

export interface ConsoleUser {
  id: string;
  email: string;
  passwordHash: string;
  operator: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface Membership {
  userId: string;
  orgId: string;
  role: OrgRole;
  createdAt: Date;
}

export interface ConsoleSession {
  /** SHA-256 of the cookie's token. */
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
}

export interface ConsoleLink {
  /** SHA-256 of the link's token. */
  id: string;
  kind: 'invitation' | 'reset';
  email: string;
  orgId: string | null;
  role: LinkRole;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  /** The account that used it (an invitation: the one that accepted). */
  usedBy: string | null;
}

/** The console's people, sessions and links (src/store/repos/console.ts): `repos.console`. */
export interface ConsoleRepository {
  findUserByEmail(ex: Executor, email: string): Promise<ConsoleUser | null>;
  findUser(ex: Executor, id: string): Promise<ConsoleUser | null>;
  insertUser(ex: Executor, u: ConsoleUser): Promise<ConsoleUser>;
  setPassword(ex: Executor, userId: string, hash: string, at: Date): Promise<void>;
  listUsers(ex: Executor): Promise<ConsoleUser[]>;
  memberships(ex: Executor, userId: string): Promise<Membership[]>;
  /** Inserts or changes the user's role in the organization. */
  putMembership(ex: Executor, m: Membership): Promise<void>;
  removeMembership(ex: Executor, userId: string, orgId: string): Promise<boolean>;
  insertSession(ex: Executor, s: ConsoleSession): Promise<void>;
  findSession(ex: Executor, id: string): Promise<ConsoleSession | null>;
  touchSession(ex: Executor, id: string, at: Date): Promise<void>;
  endSession(ex: Executor, id: string, at: Date): Promise<void>;
  /** Ends every open session of the user; returns how many. */
  endUserSessions(ex: Executor, userId: string, at: Date): Promise<number>;
  insertLink(ex: Executor, l: ConsoleLink): Promise<void>;
  findLink(ex: Executor, id: string): Promise<ConsoleLink | null>;
  /** False when the link was used already (two tabs, one link). */
  useLink(ex: Executor, id: string, userId: string, at: Date): Promise<boolean>;
  /** Newest first; `orgId` null: every organization's. */
  listLinks(ex: Executor, orgId: string | null, limit: number): Promise<ConsoleLink[]>;
}

/** What the console's account services are given: its repository, the audit log, transactions. */
export interface ConsoleRepos extends UnitOfWork {
  audit: AuditLog;
  console: ConsoleRepository;
}
