import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { buildAdminApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { systemClock } from '../src/deps.js';
import { openRuntime } from '../src/runtime.js';
import { seedOutboundBench } from './outbound-hook.js';
import type { BenchRow, Json, SeedApi } from './rows.js';

// The schema allows 10,000 numbers per request, but the 64 KiB body limit
// (BODY_LIMIT in src/app.ts) stops at about 4,000 of them.
const CHUNK = 3_000;

/**
 * One organization (rate limit raised so it never answers 429), one key, and
 * whatever each row's seed step asks for, all through the admin API. Runs
 * before any child starts: PGlite's data directory has one process at a time.
 */
export async function seedRows(
  storeEnv: Record<string, string>,
  rows: BenchRow[],
  poolSize: number,
  receiverUrl = '',
): Promise<{ apiKey: string; seeds: Record<string, Json> }> {
  const token = `adm_${randomBytes(16).toString('hex')}`;
  // Private targets: the webhook row's receiver listens on 127.0.0.1.
  const config = loadConfig({
    ...storeEnv,
    ADMIN_TOKEN: token,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
  });
  const runtime = await openRuntime(config, pino({ level: 'silent' }), systemClock);
  const app = await buildAdminApp(runtime, token);
  try {
    const admin: SeedApi['admin'] = async (method, url, body) => {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      if (res.statusCode >= 300)
        throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
      return res.json() as Json;
    };
    const org = await admin('POST', '/admin/orgs', { name: 'Bench org', tracking_enabled: true });
    const orgId = org.org_id as string;
    // The ceiling is the API's, not the per-organization limit (default 300/min).
    await admin('PATCH', `/admin/orgs/${orgId}`, { dni_rate_limit_per_minute: 1_000_000 });
    const key = await admin('POST', `/admin/orgs/${orgId}/keys`, {
      scopes: ['enroll', 'execute'],
      label: 'bench',
    });
    let campaigns = 0;
    let numbers = 0;
    const campaign = async (pool: number): Promise<string> => {
      const code = `b${(campaigns++).toString(36).padStart(2, '0')}`;
      // Distinct, possible US numbers: 415-200-0000 upwards.
      const all = Array.from({ length: pool }, () => `+1415${2_000_000 + numbers++}`);
      await admin('POST', `/admin/orgs/${orgId}/campaigns`, {
        code,
        name: `Bench ${code}`,
        numbers: all.slice(0, CHUNK),
      });
      for (let i = CHUNK; i < all.length; i += CHUNK) {
        await admin('POST', `/admin/orgs/${orgId}/campaigns/${code}/numbers`, {
          numbers: all.slice(i, i + CHUNK),
        });
      }
      return code;
    };
    const api: SeedApi = {
      admin,
      orgId,
      apiKey: key.api_key as string,
      campaign,
      poolSize,
      receiverUrl,
      consents: async (n) => {
        await seedOutboundBench(runtime.repos, { orgId, contacts: n });
        return n;
      },
    };
    const seeds: Record<string, Json> = {};
    for (const row of rows) seeds[row.id] = row.seed ? await row.seed(api) : {};
    return { apiKey: api.apiKey, seeds };
  } finally {
    await app.close();
    await runtime.close();
  }
}
