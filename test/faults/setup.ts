import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { post } from '../helpers/server-process.js';
import { migratedDatabase } from '../helpers/store.js';

export const ADMIN_TOKEN = 'adm_faults_test_token';
export const adminAuth = { authorization: `Bearer ${ADMIN_TOKEN}` };

export function pgUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('the fault suite needs TEST_DATABASE_URL');
  return url;
}

export interface FreshDatabase {
  name: string;
  url: string;
  /** Runs SQL on the database as an outside observer (not the app's connections). */
  query<T extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  /** pg_terminate_backend on every connection of the app to this database. */
  terminateApp(): Promise<number>;
  drop(): Promise<void>;
}

export async function freshDatabase(prefix: string): Promise<FreshDatabase> {
  const scratch = await migratedDatabase(prefix);
  const admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
  const observer = new pg.Client({ connectionString: scratch.url });
  await observer.connect();
  const observerPid = (await observer.query('select pg_backend_pid() as pid')).rows[0].pid;
  return {
    name: scratch.name,
    url: scratch.url,
    async query(text, params = []) {
      return (await observer.query(text, params)).rows;
    },
    async terminateApp() {
      const r = await admin.query(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
          where datname = $1 and pid <> $2`,
        [scratch.name, observerPid],
      );
      return r.rows[0].n as number;
    },
    async drop() {
      await observer.end().catch(() => {});
      await admin.end();
      await scratch.drop();
    },
  };
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface FaultTenant {
  orgId: string;
  auth: Record<string, string>;
  code: string;
  numbers: string[];
}

/** An organization with API access, a key with both scopes and a campaign. */
export async function setUpTenant(
  adminUrl: string,
  o: { numbers?: number; code?: string } = {},
): Promise<FaultTenant> {
  const must = async (path: string, body: unknown) => {
    const res = await post(`${adminUrl}${path}`, body, adminAuth);
    if (res.status >= 300) throw new Error(`${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const org = await must('/admin/orgs', {
    name: 'Faults',
    tracking_enabled: true,
    dni_rate_limit_per_minute: 1_000_000,
  });
  const key = await must(`/admin/orgs/${org.org_id}/keys`, { scopes: ['enroll', 'execute'] });
  const base = 2_000_000 + Math.floor(Math.random() * 5_000_000);
  const numbers = Array.from({ length: o.numbers ?? 200 }, (_, i) => `+1415${base + i}`);
  const code = o.code ?? 'flt';
  await must(`/admin/orgs/${org.org_id}/campaigns`, { code, name: 'Faults', numbers });
  return { orgId: org.org_id, auth: { authorization: `Bearer ${key.api_key}` }, code, numbers };
}

export interface Answer {
  status: number;
  retryAfter: string | null;
  body: any;
}

/** A POST that reports a reset connection as status 0 instead of throwing. */
export async function send(url: string, body: unknown, headers: Record<string, string>) {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: parsed };
  } catch (err) {
    return { status: 0, retryAfter: null, body: String((err as Error).cause ?? err) };
  }
}
