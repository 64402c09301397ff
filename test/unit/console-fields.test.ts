import { describe, expect, it } from 'vitest';
import { barChart, lineChart } from '../../src/console/chart.js';
import { readNumber, readNumbers } from '../../src/console/phone.js';
import { dayRange, isoInZone, localTime, MAX_RANGE_DAYS } from '../../src/console/time.js';
import { foldSource } from '../../src/domain/reports/sources.js';

describe('numbers as people type them', () => {
  it('are read in the organization’s country, and with their own country code', () => {
    for (const t of ['212-555-0312', '(212) 555-0312', '212.555.0312', '+1 212 555 0312'])
      expect(readNumber(t, 'US'), t).toBe('+12125550312');
    expect(readNumber('020 7946 0018', 'GB')).toBe('+442079460018');
    expect(readNumber('020 7946 0018', 'US')).toBeNull();
    for (const t of ['', '555-01', 'call the office', '+1 212 555 0312 ext', '1'.repeat(41)])
      expect(readNumber(t, 'US'), t).toBeNull();
  });

  it('a box keeps the good ones, names the bad ones as typed, and reads each once', () => {
    expect(
      readNumbers(
        '212-555-0312\n555-01, (212) 555-0313;+12125550312\n\n+12125550314 +12125550315',
        'US',
      ),
    ).toEqual({
      numbers: ['+12125550312', '+12125550313', '+12125550314', '+12125550315'],
      bad: ['555-01'],
    });
  });
});

describe('times in the organization’s zone', () => {
  const at = new Date('2026-11-28T04:07:00Z');
  it('carry the zone on the page and the offset in a CSV', () => {
    expect(localTime(at, 'America/New_York')).toBe('2026-11-27, 23:07 EST');
    expect(localTime(at, 'UTC')).toBe('2026-11-28, 04:07 UTC');
    expect(isoInZone(at, 'America/New_York')).toBe('2026-11-27T23:07:00-05:00');
    expect(isoInZone(at, 'Asia/Kathmandu')).toBe('2026-11-28T09:52:00+05:45');
    expect(isoInZone(at, 'UTC')).toBe('2026-11-28T04:07:00Z');
    expect(Date.parse(isoInZone(at, 'Asia/Kathmandu'))).toBe(at.getTime());
  });

  it('a range longer than the most a page shows is cut, and says so', () => {
    const r = dayRange({ from: '2020-01-01', to: '2026-11-27' }, 'UTC', at);
    expect(r).toMatchObject({ to: '2026-11-27', days: MAX_RANGE_DAYS });
    expect(r.notice).toContain(`at most ${MAX_RANGE_DAYS} days`);
    expect(dayRange({ from: '2026-11-01', to: '2026-11-07' }, 'UTC', at)).toMatchObject({
      days: 7,
      notice: null,
    });
  });
});

describe('sources', () => {
  it('fold case, spacing and a network’s other names', () => {
    expect(['Facebook', ' FB ', 'meta', 'fb\n'].map(foldSource)).toEqual([
      'meta',
      'meta',
      'meta',
      'meta',
    ]);
    expect(['BING', 'Microsoft'].map(foldSource)).toEqual(['microsoft', 'microsoft']);
    expect(foldSource('  Google \t Ads ')).toBe('google ads');
    expect(foldSource('facebookads')).toBe('facebookads');
  });
});

describe('charts', () => {
  /** The x-axis labels of each drawing: [x, anchor, text]. */
  const axis = (svg: string) =>
    [...svg.matchAll(/<svg viewBox="0 0 (\d+) (\d+)"[\s\S]*?<\/svg>/g)].map((m) => {
      const [w, h] = [Number(m[1]), Number(m[2])];
      const labels = [
        ...m[0].matchAll(/<text x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)"[^>]*>([^<]*)</g),
      ]
        .filter((t) => Number(t[2]) > h - 30)
        .map((t) => ({ x: Number(t[1]), anchor: t[3]!, text: t[4]! }));
      return { w, labels };
    });
  const labels = Array.from(
    { length: 168 },
    (_, i) => `Nov ${1 + Math.floor(i / 24)}, ${i % 24} h`,
  );

  it('draw a wide and a narrow drawing whose last label ends inside and none overlaps', () => {
    const charts = [
      barChart({
        title: 't',
        labels,
        values: labels.map((_, i) => i % 5),
        colour: '#000',
        format: String,
      }),
      lineChart({
        title: 't',
        labels: labels.slice(0, 30),
        series: [{ name: 's', colour: '#000', values: labels.slice(0, 30).map(() => 1) }],
        format: String,
      }),
    ];
    for (const chart of charts) {
      const drawings = axis(chart.text);
      expect(drawings.map((d) => d.w)).toEqual([800, 360]);
      for (const d of drawings) {
        const last = d.labels.at(-1)!;
        expect(last.anchor).toBe('end');
        expect(last.x).toBeLessThanOrEqual(d.w);
        const boxes = d.labels.map((l) => {
          const w = l.text.length * 7;
          const left = l.anchor === 'end' ? l.x - w : l.anchor === 'start' ? l.x : l.x - w / 2;
          return [left, left + w] as const;
        });
        for (let i = 1; i < boxes.length; i++)
          expect(boxes[i]![0]).toBeGreaterThan(boxes[i - 1]![1]);
        expect(d.labels.length).toBeGreaterThanOrEqual(2);
      }
    }
  });
});
