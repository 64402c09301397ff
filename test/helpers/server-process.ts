import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { builtArgs } from './processes.js';
import { migratedDatabase, migratedDataDir, storeKind } from './store.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  apiUrl: string;
  adminUrl: string;
  /** Everything the server logged, for failure messages. */
  output(): string;
  /**
   * The log from `from` on, once it matches `pattern`: the server writes its
   * log in blocks at least every 100 ms (src/logger.ts), so a line may arrive
   * a little after the request that caused it. Throws after `timeoutMs`.
   */
  waitForOutput(pattern: RegExp, from?: number, timeoutMs?: number): Promise<string>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Runs the service (dist/src/server.js: processes.ts, builtArgs) in a child
 * process on free ports (PORT=0) and resolves once both listeners are up,
 * reading their addresses from the log.
 */
export async function startServer(
  env: Record<string, string>,
  o: { cwd?: string } = {},
): Promise<ServerProcess> {
  // An absolute path, so the server may run in another working directory (its `.env`).
  const child = spawn(process.execPath, builtArgs('src/server.ts'), {
    cwd: o.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      ADMIN_PORT: '0',
      CONSOLE_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const listening: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      for (const m of chunk
        .toString()
        .matchAll(/(?:public|admin) API listening at (http:\/\/[^" ]+)/g))
        listening.push(m[1]!);
      if (listening.length >= 2) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => {
      log += c.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`server exited (${code}) before listening:\n${log}`)),
    );
  });
  // Generous: on a loaded two-core machine a cold start has taken over a minute.
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  await ready.finally(() => clearTimeout(timer));
  // The public API listens first (src/server.ts), then the admin API.
  return {
    child,
    apiUrl: listening[0]!,
    adminUrl: listening[1]!,
    output: () => log,
    async waitForOutput(pattern, from = 0, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(log.slice(from))) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in the log:\n${log.slice(from)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return log.slice(from);
    },
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

export async function post(url: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Undo steps a file registers as it goes; run last first, after its tests. */
export function useCleanups(): (step: () => Promise<void>) => void {
  const steps: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of steps.reverse()) await step();
  });
  return (step) => void steps.push(step);
}

/**
 * Where a server that is killed and started again keeps its data: a fresh DATA_DIR and, on
 * PostgreSQL, a fresh database, both removed by the file's clean-ups. Both start migrated
 * (copies of the run's migrated store, test/helpers/global-setup.ts): what these servers are
 * tested on is the restart, and a first start of its own migrations is first-start.test.ts's.
 */
export async function durableStoreEnv(
  prefix: string,
  cleanup: (step: () => Promise<void>) => void,
): Promise<Record<string, string>> {
  const dir =
    storeKind === 'pglite' ? migratedDataDir(prefix) : mkdtempSync(join(tmpdir(), `${prefix}-`));
  cleanup(async () => rmSync(dir, { recursive: true, force: true }));
  if (storeKind === 'pglite') return { DATA_DIR: dir };
  const db = await migratedDatabase(`tracking_${prefix.replaceAll('-', '_')}`);
  cleanup(() => db.drop());
  return { DATA_DIR: dir, DATABASE_URL: db.url };
}

/** Polls `check` every 50 ms until it holds; fails, naming `what`, after `ms`. */
export async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An organization and its campaign `code` on one fresh number, through the admin API. */
export async function orgWithCampaign(
  server: ServerProcess,
  admin: Record<string, string>,
  org: Record<string, unknown>,
  code: string,
): Promise<{ orgId: string; number: string }> {
  const created = await post(`${server.adminUrl}/admin/orgs`, org, admin);
  const orgId = created.body.org_id as string;
  const number = `+1415${String(5_000_000 + Math.floor(Math.random() * 999_999))}`;
  const campaign = await post(
    `${server.adminUrl}/admin/orgs/${orgId}/campaigns`,
    { code, name: code.toUpperCase(), numbers: [number] },
    admin,
  );
  if (campaign.status !== 201) throw new Error(`campaign ${code}: ${JSON.stringify(campaign)}`);
  return { orgId, number };
}

/**
 * For a test that SIGKILLs a server and starts another on the same data: the data (a fresh
 * DATA_DIR and, on PostgreSQL, database, removed after the file), the admin API's token, and
 * the servers it starts, killed after the file if still running.
 */
export function useRestartableServer(prefix: string) {
  const cleanup = useCleanups();
  const token = `adm_${prefix.replaceAll('-', '_')}_token`;
  return {
    cleanup,
    admin: { authorization: `Bearer ${token}` },
    /** The environment of every server of the test: the same data each time. */
    async env(extra: Record<string, string> = {}): Promise<Record<string, string>> {
      return { ...(await durableStoreEnv(prefix, cleanup)), ADMIN_TOKEN: token, ...extra };
    },
    async start(env: Record<string, string>): Promise<ServerProcess> {
      const server = await startServer(env);
      cleanup(() => server.kill('SIGKILL'));
      return server;
    },
  };
}
