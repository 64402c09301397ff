import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminCall, type Harness, useHarness } from '../helpers/harness.js';
import { freshContact, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';

// A real listener: what matters is when the lines reach the client.
const h: Harness = useHarness({ listen: 'admin' });
let orgId: string;
beforeAll(async () => {
  h.clock.set(WEEKDAY_MORNING_ET);
  orgId = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Progress' })).org_id;
});

interface Line {
  /** Which read of the response body completed the line: lines sent late come in later reads. */
  read: number;
  value: Record<string, any>;
}

async function importStreamed(csv: string, accept = 'application/x-ndjson') {
  const res = await fetch(`${h.url}/admin/orgs/${orgId}/consents/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/csv', accept },
    body: csv,
  });
  const lines: Line[] = [];
  const decoder = new TextDecoder();
  let pending = '';
  let read = 0;
  for await (const chunk of res.body!) {
    read++;
    pending += decoder.decode(chunk, { stream: true });
    const parts = pending.split('\n');
    pending = parts.pop()!;
    for (const p of parts) lines.push({ read, value: JSON.parse(p) });
  }
  return { status: res.status, type: res.headers.get('content-type'), lines, rest: pending };
}

const bulk = (n: number) =>
  Array.from({ length: n }, () => `${freshContact(415)},pewc,bulk,2026-02-01T00:00:00Z`);

describe('consent import with progress lines (Accept: application/x-ndjson)', () => {
  it('streams rows done of the total while it works, then the summary; bad rows by line', async () => {
    const rows = bulk(3000);
    rows.splice(1234, 0, '12345,gold,bulk,2026-02-01T00:00:00Z'); // line 1236 of the file
    const csv = `e164,tier,source,captured_at\n${rows.join('\n')}\n`;
    const r = await importStreamed(csv);
    expect([r.status, r.type, r.rest]).toEqual([200, 'application/x-ndjson', '']);

    const progress = r.lines.filter((l) => l.value.progress).map((l) => l.value.progress);
    // At the start (header accepted), then after every batch of 500 stored.
    expect(progress[0]).toEqual({ rows: 0, total: 3001, imported: 0, duplicates: 0, rejected: 0 });
    expect(progress.length).toBeGreaterThanOrEqual(7);
    for (const [i, p] of progress.entries()) {
      expect(p.total).toBe(3001);
      expect(p.imported + p.duplicates + p.rejected).toBe(p.rows);
      if (i > 0) expect(p.rows).toBeGreaterThanOrEqual(progress[i - 1].rows);
    }
    expect(progress.some((p) => p.rows > 0 && p.rows < 3001)).toBe(true);
    expect(progress.at(-1)).toEqual({
      rows: 3001,
      total: 3001,
      imported: 3000,
      duplicates: 0,
      rejected: 1,
    });

    const last = r.lines.at(-1)!;
    expect(last.value).toEqual({
      summary: {
        rows: 3001,
        imported: 3000,
        duplicates: 0,
        rejected_count: 1,
        rejected: [
          {
            line: 1236,
            errors: [
              'e164: must be a possible phone number in E.164 form',
              'tier: must be pewc, pec or ebr',
            ],
          },
        ],
      },
    });
    // Sent as the import went, not all at the end: the first line came in an earlier read.
    expect(r.lines[0]!.read).toBeLessThan(last.read);
  });

  it('a bad header is still a 422 with the usual JSON body, nothing streamed', async () => {
    const csv = 'phone,tier\n+14155550000,pewc\n';
    const r = await importStreamed(csv);
    expect([r.status, r.type]).toEqual([422, 'application/json']);
    expect(r.lines).toEqual([]);
    expect(JSON.parse(r.rest).detail.map((e: { msg: string }) => e.msg)).toEqual([
      'Value error, unknown column "phone"',
      'Value error, the header must name an e164 column',
    ]);
  });

  it('without the Accept header the answer is the summary alone, as before', async () => {
    const r = await importStreamed(`e164,tier\n${freshContact(415)},pec\n`, 'application/json');
    expect([r.status, r.type]).toEqual([200, 'application/json']);
    expect(JSON.parse(r.rest)).toEqual({
      rows: 1,
      imported: 1,
      duplicates: 0,
      rejected_count: 0,
      rejected: [],
    });
  });
});
