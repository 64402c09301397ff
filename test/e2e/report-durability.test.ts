import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtArgs, freePort } from '../helpers/processes.js';
import { migratedDatabase, migratedDataDir, storeKind } from '../helpers/store.js';

/**
 * An acknowledged buyer report survives the server being killed without
 * warning: the server runs as a child process on a store of its own, is
 * SIGKILLed right after the last 201, and a restarted server replays every
 * acknowledged report id with its first event id.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = `adm_${randomBytes(12).toString('hex')}`;

interface Server {
  child: ChildProcess;
  api: string;
  admin: string;
  exited: Promise<NodeJS.Signals | number | null>;
}

async function start(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const adminPort = await freePort();
  // node itself, not npm or npx: the server is this one process, so SIGKILL reaches it.
  const child = spawn(process.execPath, builtArgs('src/server.ts'), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      CONSOLE_PORT: '0',
      ADMIN_TOKEN: TOKEN,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code)),
  );
  const api = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    const ok = await fetch(`${api}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, api, admin: `http://127.0.0.1:${adminPort}`, exited };
}

async function call(base: string, method: string, path: string, auth: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** A field every answer here must have. */
function field(answer: { body: Record<string, string> }, name: string): string {
  const v = answer.body[name];
  if (typeof v !== 'string') throw new Error(`no ${name} in ${JSON.stringify(answer.body)}`);
  return v;
}

let env: Record<string, string>;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  if (storeKind === 'pglite') {
    const dir = migratedDataDir('report-durability');
    env = { DATA_DIR: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const db = await migratedDatabase('durability');
    const dir = mkdtempSync(join(tmpdir(), 'report-durability-'));
    env = { DATABASE_URL: db.url, DATA_DIR: dir };
    cleanup = async () => {
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
});
afterAll(async () => {
  await cleanup?.();
});

describe('durability', () => {
  it('replays every acknowledged report after a SIGKILL', { timeout: 180_000 }, async () => {
    const first = await start(env);
    let acknowledged: { body: Record<string, string>; eventId: string }[] = [];
    let apiKey = '';
    let code = '';
    try {
      const org = await call(first.admin, 'POST', '/admin/orgs', TOKEN, {
        name: 'Durable',
        tracking_enabled: true,
      });
      const key = await call(first.admin, 'POST', `/admin/orgs/${org.body.org_id}/keys`, TOKEN, {
        scopes: ['execute'],
      });
      apiKey = field(key, 'api_key');
      code = 'dur';
      await call(first.admin, 'POST', `/admin/orgs/${org.body.org_id}/campaigns`, TOKEN, {
        code,
        name: 'Durable',
        numbers: ['+14155550171'],
      });
      const callIds: string[] = [];
      for (let i = 0; i < 5; i++) {
        const c = await call(first.admin, 'POST', `/admin/orgs/${org.body.org_id}/calls`, TOKEN, {
          to: '+14155550171',
          from: `+1212555017${i}`,
        });
        callIds.push(field(c, 'call_id'));
      }
      const bodies = Array.from({ length: 20 }, (_, i) => ({
        call_id: callIds[i % callIds.length]!,
        report_id: `durable-${i}`,
        disposition: i % 3 === 0 ? 'rejected' : 'success',
      }));
      // Half one after another, half at once: the kill lands right after the last answer.
      const posted = [];
      for (const body of bodies.slice(0, 10)) {
        posted.push(
          await call(first.api, 'POST', `/dni/campaigns/${code}/buyer-report`, apiKey, body),
        );
      }
      posted.push(
        ...(await Promise.all(
          bodies
            .slice(10)
            .map((body) =>
              call(first.api, 'POST', `/dni/campaigns/${code}/buyer-report`, apiKey, body),
            ),
        )),
      );
      acknowledged = posted.map((r, i) => {
        expect(r.status).toBe(201);
        return { body: bodies[i]!, eventId: field(r, 'event_id') };
      });
    } finally {
      first.child.kill('SIGKILL');
    }
    expect(await first.exited).toBe('SIGKILL');

    const second = await start(env);
    try {
      for (const a of acknowledged) {
        const again = await call(
          second.api,
          'POST',
          `/dni/campaigns/${code}/buyer-report`,
          apiKey,
          a.body,
        );
        expect(again).toEqual({ status: 200, body: { event_id: a.eventId, created: false } });
      }
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
