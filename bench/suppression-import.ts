/**
 * Imports a generated national-registry file of N numbers (default 10 million) into a fresh
 * organization and prints the time, rows per second and peak RSS.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_sup npx tsx bench/suppression-import.ts 10000000
 *   npx tsx bench/suppression-import.ts 1000000            # PGlite, in memory
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { importSuppressionList } from '../src/domain/suppression/import.js';
import { openStore } from '../src/store/db.js';
import { createRepositories } from '../src/store/repos/index.js';

const n = Number(process.argv[2] ?? 10_000_000);
const file = join(tmpdir(), `national-${n}.txt`);

async function generate(): Promise<void> {
  const out = createWriteStream(file);
  let buf = '';
  for (let i = 0; i < n; i++) {
    // Spread over real area codes, 10 digits a line, as the registry's area-code files are.
    const npa = 201 + (i % 700);
    buf += `${npa}${String(2_000_000 + Math.floor(i / 700)).padStart(7, '0')}\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  out.end(buf);
  await new Promise<void>((r) => out.on('finish', () => r()));
}

await generate();
const size = (await stat(file)).size;
const store = await openStore({ databaseUrl: process.env.DATABASE_URL, poolSize: 2 });
await store.migrate();
const orgId = `org_bench_${Date.now()}`;
await store.db.execute(sql`insert into orgs (id, name) values (${orgId}, 'bench')`);
const started = performance.now();
let last = 0;
const summary = await importSuppressionList(createRepositories(store), createReadStream(file), {
  orgId,
  list: 'national',
  mode: 'add',
  source: 'bench',
  listedOn: new Date().toISOString().slice(0, 10),
  state: null,
  nowMs: Date.now(),
  actor: 'bench',
  requestId: null,
  onProgress: (p) => {
    if (p.rows - last >= 1_000_000) {
      last = p.rows;
      process.stderr.write(
        `${p.rows} rows, ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
      );
    }
  },
});
const seconds = (performance.now() - started) / 1000;
const rssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  `${JSON.stringify({ store: store.kind, numbers: n, file_mb: +(size / 1e6).toFixed(1), seconds: +seconds.toFixed(1), rows_per_s: Math.round(n / seconds), peak_rss_mb: Math.round(rssMb), added: summary.added, rejected: summary.rejected_count })}\n`,
);
await store.db.execute(sql`delete from suppression_entries where org_id = ${orgId}`);
await store.close();
await unlink(file);
