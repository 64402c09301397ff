/**
 * npm run bench -- routing: the voice webhook with a routing plan (issue 38), in process on a
 * fresh PostgreSQL database (the app and the admin app as `npm start` builds them, requests
 * through app.inject, so no socket time is counted):
 *
 * 1. TwiML p50/p99 of signed voice webhooks, BENCH_ROUTING_INFLIGHT (64) in flight, for
 *    BENCH_ROUTING_CALLS (3,000) calls, on a campaign whose plan has 50 buyers.
 * 2. A burst of 1,000 calls in one second (one a millisecond) at a campaign whose only buyer has a daily
 *    cap of 100: how many were offered to it, how many went to the fallback, how many are
 *    recorded (none may be lost).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import pino from 'pino';
import twilio from 'twilio';
import { buildAdminApp, buildApp } from '../src/app.js';
import { type AppDeps, systemClock } from '../src/deps.js';
import { Keyring } from '../src/domain/auth/keyring.js';
import { MemoryRateLimiter } from '../src/domain/rate-limit/limiter.js';
import { openStore } from '../src/store/db.js';
import { wireStore } from '../src/wiring.js';
import { processCpuMicros } from './stores.js';

const TOKEN = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const BASE = 'https://calls.example.com';
const ADMIN = 'bench-admin-token-0123456789abcdef';
const pgUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const inflight = Number(process.env.BENCH_ROUTING_INFLIGHT ?? 64);
const total = Number(process.env.BENCH_ROUTING_CALLS ?? 3000);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};

/**
 * BENCH_CPU_PROF=dir: a V8 profile of a window, from now until `stop`, written to
 * dir/<name>-<pid>.cpuprofile (bench/profile-summary.ts reads it). Without it, nothing.
 */
async function profileWindow(name: string, what: string): Promise<{ stop(): Promise<void> }> {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return { stop: async () => {} };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      const file = `${dir}/${name}-${process.pid}.cpuprofile`;
      writeFileSync(file, JSON.stringify(profile));
      console.log(`profile of ${what}: ${file}`);
      session.disconnect();
    },
  };
}

export async function benchRouting(): Promise<void> {
  const db = `bench_routing_${process.pid}`;
  const root = new pg.Client({ connectionString: pgUrl });
  await root.connect();
  await root.query(`create database ${db}`);
  const url = new URL(pgUrl);
  url.pathname = `/${db}`;
  const store = await openStore({ databaseUrl: url.toString() });
  try {
    await store.migrate();
    const deps: AppDeps = {
      ...wireStore(store, systemClock),
      keyring: new Keyring(),
      limiter: new MemoryRateLimiter(),
      clock: systemClock,
      logger: pino({ level: 'silent' }),
    };
    deps.twilio = { authToken: TOKEN, publicBaseUrl: BASE } as AppDeps['twilio'];
    const app = await buildApp(deps);
    const admin = await buildAdminApp(deps, ADMIN, ADMIN);
    await app.ready();
    await admin.ready();
    const call = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
      const res = await admin.inject({
        method,
        url: path,
        headers: { authorization: `Bearer ${ADMIN}` },
        payload: body as object,
      });
      if (res.statusCode >= 300)
        throw new Error(`${method} ${path} → ${res.statusCode} ${res.body}`);
      return res.json();
    };
    let numberSeq = 0;
    const number = () => `+1415555${String(numberSeq++).padStart(4, '0')}`;
    async function campaign(buyers: Record<string, unknown>[]) {
      const org = await call('POST', '/admin/orgs', { name: 'Bench org', tracking_enabled: true });
      const code = `r${numberSeq % 90}`;
      const to = number();
      await call('POST', `/admin/orgs/${org.org_id}/campaigns`, {
        code,
        name: 'Routed',
        numbers: [to],
        forward_to: number(),
      });
      const ids: string[] = [];
      for (const b of buyers)
        ids.push(
          (
            await call('POST', `/admin/orgs/${org.org_id}/buyers`, {
              name: 'B',
              forward_to: number(),
              ...b,
            })
          ).buyer_id,
        );
      await call('PUT', `/admin/orgs/${org.org_id}/campaigns/${code}/routing`, {
        targets: ids.map((buyer_id, i) => ({
          buyer_id,
          priority: 1 + (i % 3),
          weight: 1 + (i % 5),
        })),
      });
      return { orgId: org.org_id as string, to, ids };
    }
    let sid = 0;
    /** A form posted and signed as Twilio does, over BASE + path (query string included). */
    const post = async (path: string, params: Record<string, string>) => {
      const t0 = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: path,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilio.getExpectedTwilioSignature(TOKEN, `${BASE}${path}`, params),
        },
        payload: new URLSearchParams(params).toString(),
      });
      return { ms: performance.now() - t0, status: res.statusCode, body: res.body };
    };
    const voice = async (to: string) => {
      const params = {
        AccountSid: 'AC0123456789abcdef0123456789abcdef',
        CallSid: `CA${(Date.now() * 1000 + sid++).toString(16).padStart(32, '0')}`,
        CallStatus: 'ringing',
        From: `+1212555${String(sid % 10000).padStart(4, '0')}`,
        To: to,
      };
      const t0 = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/carrier/twilio/voice',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilio.getExpectedTwilioSignature(
            TOKEN,
            `${BASE}/carrier/twilio/voice`,
            params,
          ),
        },
        payload: new URLSearchParams(params).toString(),
      });
      return { ms: performance.now() - t0, status: res.statusCode, body: res.body };
    };

    // 1. 50 buyers, calls kept in flight.
    const fifty = await campaign(Array.from({ length: 50 }, () => ({})));
    for (let i = 0; i < 200; i++) await voice(fifty.to); // warm
    const times: number[] = [];
    let errors = 0;
    let next = 0;
    // CPU spent per call, by this process (the service and the bench's own requests) and by the
    // database's backends: unlike calls/s, it holds still when other work loads the machine.
    let floorPid = 0; // the floor probe's backend (1c), not the service's
    const backendCpu = async () => {
      const { rows } = await root.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1 and pid <> $2',
        [db, floorPid],
      );
      return rows.reduce((sum, { pid }) => sum + (processCpuMicros(pid) ?? 0), 0);
    };
    const profiler = await profileWindow('routing', 'the measured window');
    const cpu0 = { node: process.cpuUsage(), pg: await backendCpu() };
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inflight }, async () => {
        while (next++ < total) {
          const r = await voice(fifty.to);
          if (r.status !== 200 || !r.body.includes('<Dial')) errors++;
          times.push(r.ms);
        }
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    const nodeCpu = process.cpuUsage(cpu0.node);
    await profiler.stop();
    const pgCpu = (await backendCpu()) - cpu0.pg;
    console.log(
      `voice webhook, 50 buyers, ${inflight} in flight: ${times.length} calls, ${(times.length / secs).toFixed(0)}/s, p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, errors ${errors}; CPU per call: this process ${((nodeCpu.user + nodeCpu.system) / times.length).toFixed(0)} µs (kernel ${(nodeCpu.system / times.length).toFixed(0)}), PostgreSQL ${(pgCpu / times.length).toFixed(0)} µs`,
    );

    // 1b. The same campaign at an offered rate (BENCH_ROUTING_RATE calls a second, default 100,
    // for 10 s): calls arrive whether or not earlier ones were answered, as a carrier sends them,
    // so the p99 is the answer's latency rather than a queue behind the closed loop's 64.
    const rate = Number(process.env.BENCH_ROUTING_RATE ?? 100);
    if (rate > 0) {
      const count = rate * 10;
      const r0 = performance.now();
      const paced = await Promise.all(
        Array.from(
          { length: count },
          (_, i) =>
            new Promise<Awaited<ReturnType<typeof voice>>>((done) => {
              setTimeout(() => void voice(fifty.to).then(done), (i * 1000) / rate);
            }),
        ),
      );
      const late = paced.filter((r) => r.status !== 200 || !r.body.includes('<Dial')).length;
      const most = paced.reduce((m, r) => Math.max(m, r.ms), 0);
      console.log(
        `voice webhook, 50 buyers, ${rate} calls/s offered for ${((performance.now() - r0) / 1000).toFixed(1)} s: p50 ${pct(
          paced.map((r) => r.ms),
          50,
        ).toFixed(1)} ms, p99 ${pct(
          paced.map((r) => r.ms),
          99,
        ).toFixed(1)} ms, max ${most.toFixed(1)} ms, errors ${late}`,
      );
    }

    // 1c. Calls kept live (BENCH_ROUTING_LIVE, default 64): each call is a whole call as Twilio
    // makes it: the voice webhook, the buyer's leg held for about BENCH_ROUTING_TALK_MS (default
    // 1,000, drawn from half to one and a half times it: a call of minutes, shortened), its Dial
    // action (one in four `no-answer`, so the next buyer is offered and its action follows; else
    // `completed`), then the call's final status. Each webhook's latency is what the caller waits
    // for: silence before the next ring. The calls start spread over one leg's length, and the
    // first BENCH_ROUTING_WARM_MS (3,000) are not measured, so the BENCH_ROUTING_LIVE_SECS (30)
    // measured are the steady state of 64 calls live: not 64 first calls at once (the closed
    // loop above measures those), nor the first use of each statement on each connection.
    const live = Number(process.env.BENCH_ROUTING_LIVE ?? 64);
    if (live > 0) {
      const talkMs = Number(process.env.BENCH_ROUTING_TALK_MS ?? 1000);
      const warmMs = Number(process.env.BENCH_ROUTING_WARM_MS ?? 3000);
      // 30 s: about 1,300 voice webhooks, so one stall of the disk's flush (every webhook in
      // flight waits for it) is not the p99 alone, as in 10 s.
      const lsecs = Number(process.env.BENCH_ROUTING_LIVE_SECS ?? 30);
      const lat = { voice: [] as number[], dial: [] as number[], status: [] as number[] };
      let bad = 0;
      let calls = 0;
      const from0 = performance.now() + warmMs;
      const until = from0 + lsecs * 1000;
      const measured = (t: number) => t >= from0 && t < until;
      const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const actionOf = (xml: string) => {
        const m = /action="([^"]+)"/.exec(xml);
        return m ? m[1]!.replaceAll('&amp;', '&').slice(BASE.length) : null;
      };
      // How long a ready callback waited for this process's one thread: beside the webhooks'
      // p99, it tells a queue in this process from a wait in the database.
      const loop = monitorEventLoopDelay({ resolution: 1 });
      // The machine's floor, measured in the same window: every 25 ms, on a connection of its
      // own, one durable commit of a one-row insert (a round trip and a WAL flush, the least a
      // webhook that writes waits for). Its p99 is what this machine's CPU and disk alone add
      // at this load, whatever the service does; the webhooks' p99 is read against it.
      const probe = new pg.Client({ connectionString: url.toString() });
      await probe.connect();
      await probe.query('create table if not exists bench_floor (at timestamptz not null)');
      floorPid = (await probe.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!
        .pid;
      const floor: number[] = [];
      const probing = (async () => {
        for (let t = performance.now(); t < until; t = performance.now()) {
          await probe.query('insert into bench_floor values (now())');
          if (measured(t)) floor.push(performance.now() - t);
          await pause(Math.max(0, 25 - (performance.now() - t)));
        }
      })();
      let window: { profiler: { stop(): Promise<void> }; node: NodeJS.CpuUsage; pg: number };
      const opened = pause(warmMs).then(async () => {
        const profiler = await profileWindow('routing-live', "the live calls' window");
        window = { profiler, node: process.cpuUsage(), pg: await backendCpu() };
        loop.enable();
      });
      const closed = pause(warmMs + lsecs * 1000).then(async () => {
        await opened;
        loop.disable();
        const node = process.cpuUsage(window.node);
        const pg = (await backendCpu()) - window.pg;
        await window.profiler.stop();
        return { node, pg };
      });
      /** A webhook of a call; its latency counts if it was sent in the measured window. */
      const send = async (path: string, params: Record<string, string>, into: number[]) => {
        const t = performance.now();
        const r = await post(path, params);
        if (measured(t)) into.push(r.ms);
        return r;
      };
      await Promise.all(
        Array.from({ length: live }, async () => {
          await pause(Math.random() * talkMs);
          while (performance.now() < until) {
            const callSid = `CA${(Date.now() * 1000 + sid++).toString(16).padStart(32, '0')}`;
            const from = `+1212555${String(sid % 10000).padStart(4, '0')}`;
            const v = await send(
              '/carrier/twilio/voice',
              {
                AccountSid: 'AC0123456789abcdef0123456789abcdef',
                CallSid: callSid,
                CallStatus: 'ringing',
                From: from,
                To: fifty.to,
              },
              lat.voice,
            );
            let action = v.status === 200 ? actionOf(v.body) : null;
            if (!action) bad++;
            for (let leg = 0; action; leg++) {
              // Legs of different lengths, as real calls are, so the 64 do not move in step.
              await pause(talkMs * (0.5 + Math.random()));
              const missed = leg === 0 && sid % 4 === 0;
              const d = await send(
                action,
                {
                  AccountSid: 'AC0123456789abcdef0123456789abcdef',
                  CallSid: callSid,
                  CallStatus: 'in-progress',
                  DialCallStatus: missed ? 'no-answer' : 'completed',
                  DialCallDuration: missed ? '0' : '90',
                  From: from,
                },
                lat.dial,
              );
              if (d.status !== 200) bad++;
              action = missed && d.status === 200 ? actionOf(d.body) : null;
            }
            const st = await send(
              '/carrier/twilio/status',
              { CallSid: callSid, CallStatus: 'completed', CallDuration: '95' },
              lat.status,
            );
            if (st.status !== 204) bad++;
            if (measured(performance.now())) calls++;
          }
        }),
      );
      const { node: lnode, pg: lpg } = await closed;
      await probing;
      await probe.end();
      const fmt = (xs: number[]) =>
        `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms`;
      console.log(
        `${live} calls kept live (a buyer's leg ${talkMs} ms; ${warmMs} ms warm, then ${lsecs} s): ${calls} whole calls, ${(calls / lsecs).toFixed(0)} calls/s, ${((lat.voice.length + lat.dial.length + lat.status.length) / lsecs).toFixed(0)} webhooks/s; voice ${fmt(lat.voice)}; Dial action ${fmt(lat.dial)}; status ${fmt(lat.status)}; errors ${bad}; the floor (a bare durable commit beside them) ${fmt(floor)}, max ${Math.max(...floor).toFixed(1)} ms; event loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms; CPU per whole call: this process ${((lnode.user + lnode.system) / calls).toFixed(0)} µs (kernel ${(lnode.system / calls).toFixed(0)}), PostgreSQL ${(lpg / calls).toFixed(0)} µs`,
      );
    }

    // 2. A burst of 1,000 at one buyer with a daily cap of 100 (BENCH_ROUTING_BURST=0: not run).
    if (process.env.BENCH_ROUTING_BURST === '0') return;
    const capped = await campaign([{ caps: { daily: 100 } }]);
    const b0 = performance.now();
    // One second: a call every millisecond, each waiting for nothing but its own answer.
    const burst = await Promise.all(
      Array.from(
        { length: 1000 },
        (_, i) =>
          new Promise<Awaited<ReturnType<typeof voice>>>((done) => {
            setTimeout(() => void voice(capped.to).then(done), i);
          }),
      ),
    );
    const burstSecs = (performance.now() - b0) / 1000;
    const [row] = await store.query<{ calls: number; offers: number; fallback: number }>(
      `select (select count(*)::int from calls where org_id = $1) as calls,
              (select count(*)::int from call_offers where org_id = $1) as offers,
              (select count(*)::int from calls where org_id = $1 and fallback is not null) as fallback`,
      [capped.orgId],
    );
    const dialled = burst.filter((r) => r.status === 200).length;
    const statuses: Record<string, number> = {};
    for (const r of burst) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const refused = burst.find((r) => r.status !== 200);
    console.log(
      `burst of 1000 at a daily cap of 100: ${burstSecs.toFixed(2)} s, answered ${dialled}, calls recorded ${row?.calls}, offered to the buyer ${row?.offers}, to the fallback ${row?.fallback}, p99 ${pct(
        burst.map((r) => r.ms),
        99,
      ).toFixed(
        1,
      )} ms; statuses ${JSON.stringify(statuses)}${refused ? ` (${refused.body.slice(0, 160)})` : ''}`,
    );
    await app.close();
    await admin.close();
  } finally {
    await store.close();
    if (!process.env.BENCH_KEEP_DB) await root.query(`drop database if exists ${db}`);
    await root.end();
  }
}
