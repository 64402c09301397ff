import { openManySql } from '../src/store/repos/dni.js';
import { newId } from '../src/domain/ids.js';
import pg from 'pg';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/tracking_bench_reports_7s8848' });
await c.connect();
const [{ org_id: org }] = (await c.query("select org_id from campaigns where code='bd'")).rows;
let seq = 0;
const base = Date.parse('2026-10-01T00:00:00Z') + (Date.now() % 10_000_000) * 1000;
const params = () => {
  const reqs = Array.from({ length: 64 }, () => ({ visitorId: `x${Date.now()}-${seq++}`, now: new Date(base + seq * 10), id: newId('ds', base + seq * 10), attrs: { utm_source: seq % 2 ? 'google' : null, landing_url: `https://ex.org/p${seq % 9}` } }));
  return [reqs.map(() => org), reqs.map(() => 'bd'), reqs.map((r) => r.visitorId), reqs.map((r) => r.now.toISOString()), reqs.map((r) => r.id), reqs.map((r) => JSON.stringify(r.attrs))];
};
const withSql = openManySql('dni_open_sessions', true);
const texts: Record<string, string> = {
  without: openManySql('dni_open_sessions', false),
  with: withSql,



};
const acc: Record<string, number[]> = {};
for (let round = 0; round < 6; round++) {
  for (const [name, text] of Object.entries(texts)) {
    for (let i = 0; i < 30; i++) {
      const r = await c.query(`explain (analyze, timing off, summary on) ${text}`, params());
      const line = r.rows.map((x) => x['QUERY PLAN']).find((l: string) => l.startsWith('Execution Time'));
      (acc[name] ??= []).push(Number(/([\d.]+) ms/.exec(line)![1]));
    }
  }
}
for (const [k, v] of Object.entries(acc)) {
  v.sort((a, b) => a - b);
  console.log(k.padEnd(14), 'median exec', v[Math.floor(v.length / 2)]!.toFixed(3), 'ms');
}
await c.end();
