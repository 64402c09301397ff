import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { builtArgs, freePort } from '../helpers/processes.js';
import { migratedDatabase, migratedDataDir, storeKind } from '../helpers/store.js';

/**
 * Contract §5: a touch acknowledged with 202 survives a crash and reaches the carrier exactly
 * once. The server runs as a child process under touch load, is SIGKILLed, restarted on the same
 * database, and its worker drains the queue; then the simulated carrier's ledger is checked.
 */
const ADMIN_TOKEN = 'adm_e2e_durability_0123456789';
const CONTACTS = 400;
const KILL_AFTER_ACKS = 120;

let dataDir: string | undefined;
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

interface Server {
  child: ChildProcess;
  api: string;
  admin: string;
}

async function startServer(): Promise<Server> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, builtArgs('src/server.ts'), {
    cwd: join(import.meta.dirname, '../..'),
    // Its own process group, so a SIGKILL reaches the server and anything it started.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      CONSOLE_PORT: '0',
      ADMIN_TOKEN,
      CARRIER: 'simulated',
      LOG_LEVEL: 'error',
      WORKER_POLL_MS: '20',
      WORKER_LEASE_SECONDS: '2',
      // Sends take time, so the kill lands while some are in flight.
      SIMULATED_CARRIER_LATENCY_MS: '60',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
    },
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const api = `http://127.0.0.1:${port}`;
  const admin = `http://127.0.0.1:${adminPort}`;
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${admin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, api, admin };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${stderr.slice(-2000)}`);
}

function signal(s: Server, sig: NodeJS.Signals): void {
  if (s.child.pid) process.kill(-s.child.pid, sig);
}

/** Until every process of the group has exited (npx may go before the server it started). */
async function groupGone(s: Server): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      process.kill(-(s.child.pid as number), 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not exit');
}

async function adminApi(s: Server, method: string, path: string, body?: unknown, type?: string) {
  const res = await fetch(`${s.admin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': type ?? 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, any>>;
}

/** A zone where it is now about noon, so the federal window passes whenever the test runs. */
function noonZone(): string {
  const offset = 12 - new Date().getUTCHours();
  if (offset === 0) return 'Etc/GMT';
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

beforeAll(async () => {
  if (storeKind === 'pglite') {
    dataDir = migratedDataDir('outbound-e2e');
    return;
  }
  const db = await migratedDatabase('tracking_e2e');
  databaseUrl = db.url;
  dropDatabase = () => db.drop();
});

afterAll(async () => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await dropDatabase?.();
});

describe('SIGKILL under touch load', () => {
  it('loses no acknowledged touch and sends none twice', { timeout: 240_000 }, async () => {
    const first = await startServer();
    const org = await adminApi(first, 'POST', '/admin/orgs', {
      name: 'E2E',
      tracking_enabled: true,
    });
    const key = await adminApi(first, 'POST', `/admin/orgs/${org.org_id}/keys`, {
      scopes: ['execute'],
    });
    await adminApi(first, 'POST', `/admin/orgs/${org.org_id}/campaigns`, {
      code: 'e2e',
      name: 'Durability',
      numbers: ['+12125550100'],
      config: { caller_id: '+12125550100', templates: { default: { text: 'Hello' } } },
    });
    const contacts = Array.from({ length: CONTACTS }, (_, i) => `+447700${String(900000 + i)}`);
    const csv = ['e164,tier,captured_at', ...contacts.map((c) => `${c},pewc,2026-01-01T00:00:00Z`)];
    const imported = await adminApi(
      first,
      'POST',
      `/admin/orgs/${org.org_id}/consents/import`,
      csv.join('\n'),
      'text/csv',
    );
    expect(imported.imported).toBe(CONTACTS);

    const zone = noonZone();
    const acked: string[] = [];
    let next = 0;
    let killed = false;
    const loop = async () => {
      while (!killed && next < contacts.length) {
        const to = contacts[next++];
        try {
          const res = await fetch(`${first.api}/tracking/campaigns/e2e/outbound`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key.api_key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              to_e164: to,
              channel: 'sms',
              consent_basis: 'pewc',
              lead_timezone: zone,
            }),
          });
          const body = (await res.json()) as { touch_id: string; status: string };
          if (res.status === 202) acked.push(body.touch_id);
          else throw new Error(`unexpected ${res.status} ${JSON.stringify(body)}`);
          if (acked.length >= KILL_AFTER_ACKS && !killed) {
            killed = true;
            signal(first, 'SIGKILL');
          }
        } catch (err) {
          if (!killed) throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, loop));
    await groupGone(first);
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

    const second = await startServer();
    const pending = new Set(acked);
    for (let round = 0; round < 300 && pending.size > 0; round++) {
      for (const id of [...pending]) {
        const t = await adminApi(second, 'GET', `/admin/orgs/${org.org_id}/touches/${id}`);
        if (t.dispatch?.status === 'delivered') pending.delete(id);
      }
      if (pending.size > 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect([...pending]).toEqual([]);
    signal(second, 'SIGTERM');
    await groupGone(second);

    const store = await openStore({ databaseUrl, dataDir: databaseUrl ? undefined : dataDir });
    try {
      const sent = await store.query<{ touch_id: string; n: string }>(
        'select touch_id, count(*) as n from simulated_carrier_messages group by touch_id',
        [],
      );
      const perTouch = new Map(sent.map((r) => [r.touch_id, Number(r.n)]));
      for (const id of acked) expect(perTouch.get(id), id).toBe(1);
      // Touches committed but not acknowledged before the kill are sent exactly once too.
      const placed = await store.query<{ id: string }>(
        'select id from outbound_touches where placed',
        [],
      );
      expect(new Set(perTouch.keys())).toEqual(new Set(placed.map((p) => p.id)));
      const accepted = await store.query<{ touch_id: string; n: string }>(
        "select touch_id, count(*) as n from carrier_attempts where outcome = 'accepted' group by touch_id",
        [],
      );
      expect(accepted.every((a) => Number(a.n) === 1)).toBe(true);
      expect(accepted).toHaveLength(placed.length);
    } finally {
      await store.close();
    }
  });
});
