import { describe, expect, it } from 'vitest';
import { post, type ServerProcess, useRestartableServer } from '../helpers/server-process.js';

const servers = useRestartableServer('dni-durability');
const { admin } = servers;

/** dni_batch_size's count and sum from the server's /metrics. */
async function batchCounts(adminUrl: string): Promise<{ batches: number; requests: number }> {
  const text = await (await fetch(`${adminUrl}/metrics`, { headers: admin })).text();
  const read = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? 0);
  return { batches: read('dni_batch_size_count'), requests: read('dni_batch_size_sum') };
}

describe('SIGKILL under DNI load', () => {
  it('loses no acknowledged session', async () => {
    const env = await servers.env();
    let server: ServerProcess = await servers.start(env);

    const org = await post(
      `${server.adminUrl}/admin/orgs`,
      { name: 'Kill', tracking_enabled: true, dni_rate_limit_per_minute: 1_000_000 },
      admin,
    );
    const key = await post(
      `${server.adminUrl}/admin/orgs/${org.body.org_id}/keys`,
      { scopes: ['enroll'] },
      admin,
    );
    const numbers = Array.from({ length: 300 }, (_, i) => `+1415${String(5_000_000 + i)}`);
    const campaign = await post(
      `${server.adminUrl}/admin/orgs/${org.body.org_id}/campaigns`,
      { code: 'k1', name: 'K', numbers },
      admin,
    );
    expect(campaign.status).toBe(201);
    const auth = { authorization: `Bearer ${key.body.api_key}` };

    // 32 clients keep requests in flight, so the server opens them in batches
    // (checked on its metrics); it is killed after ~150 acknowledgements.
    const acked = new Map<string, string>();
    let seq = 0;
    let killed = false;
    let batching = { batches: 0, requests: 0 };
    const client = async () => {
      while (!killed) {
        const visitor = `kv-${seq++}`;
        try {
          const res = await post(
            `${server.apiUrl}/dni/session`,
            { campaign_code: 'k1', visitor_id: visitor },
            auth,
          );
          if (res.status === 201) acked.set(visitor, res.body.dni_session_id);
        } catch {
          return; // the connection died with the server: not acknowledged
        }
        if (acked.size >= 150 && !killed) {
          killed = true;
          batching = await batchCounts(server.adminUrl);
          await server.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 32 }, client));
    expect(server.child.signalCode).toBe('SIGKILL');
    expect(acked.size).toBeGreaterThanOrEqual(150);
    // Killed under batched load: on average more than one request per statement.
    expect(batching.requests).toBeGreaterThan(1.5 * batching.batches);

    server = await servers.start(env);
    // Sticky sessions make the check black-box: each acknowledged visitor must get its session back.
    const lost: string[] = [];
    for (const [visitor, sessionId] of acked) {
      const res = await post(
        `${server.apiUrl}/dni/session`,
        { campaign_code: 'k1', visitor_id: visitor },
        auth,
      );
      if (res.status !== 201 || res.body.dni_session_id !== sessionId) lost.push(visitor);
    }
    expect(lost).toEqual([]);
    await server.kill('SIGTERM');
    expect(server.child.exitCode).toBe(0);
  }, 120_000);
});
