import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { formatBytes, ProgressBar, progressLine } from '../../../src/cli/progress.js';

describe('formatBytes', () => {
  it('uses decimal units with one digit after the point', () => {
    expect([0, 999, 1000, 1500, 999_949, 999_950, 2_600_000, 3e12].map(formatBytes)).toEqual([
      '0 B',
      '999 B',
      '1.0 kB',
      '1.5 kB',
      '999.9 kB',
      '1.0 MB',
      '2.6 MB',
      '3.0 TB',
    ]);
  });
});

describe('progressLine', () => {
  it('draws a bar, the percentage and the bytes', () => {
    expect(progressLine(1_300_000, 2_600_000, 80)).toBe(
      `[${'#'.repeat(20)}${'-'.repeat(20)}]  50%  1.3 MB of 2.6 MB`,
    );
    expect(progressLine(0, 0, 80)).toBe(`[${'#'.repeat(40)}] 100%  0 B of 0 B`);
  });

  it('shows only the bytes when the total is unknown', () => {
    expect(progressLine(12_345, null, 80)).toBe('12.3 kB received');
  });

  it('stays shorter than the terminal, so \\r redraws it in place', () => {
    fc.assert(
      fc.property(
        fc.nat(10 ** 12),
        fc.option(fc.nat(10 ** 12)),
        fc.integer({ min: 5, max: 300 }),
        (done, total, columns) => {
          const line = progressLine(done, total, columns);
          expect(line.length).toBeLessThan(columns);
        },
      ),
    );
  });

  it('narrow terminals get the percentage alone, which never exceeds 100%', () => {
    expect(progressLine(5, 4, 20)).toBe('100%');
  });
});

describe('ProgressBar', () => {
  function bar(total: number | null) {
    const writes: string[] = [];
    let ms = 0;
    const progress = new ProgressBar({ write: (s) => writes.push(String(s)), columns: 60 }, total, {
      now: () => ms,
      intervalMs: 100,
    });
    return { progress, writes, tick: (n: number) => (ms += n) };
  }
  const percents = (writes: string[]) => writes.map((w) => /(\d+)%/.exec(w)?.[1] ?? w);

  it('redraws at most once per interval, but always draws the finished state', () => {
    const { progress, writes, tick } = bar(1000);
    progress.update(0);
    progress.update(100);
    tick(99);
    progress.update(200);
    tick(1);
    progress.update(300);
    progress.update(1000);
    expect(percents(writes)).toEqual(['0', '30', '100']);
    expect(writes.every((w) => w.startsWith('\r') && w.endsWith('\x1b[K'))).toBe(true);
  });

  it('clear erases the line once something was drawn, and only then', () => {
    const idle = bar(10);
    idle.progress.clear();
    expect(idle.writes).toEqual([]);
    const drawn = bar(null);
    drawn.progress.update(5);
    drawn.progress.clear();
    expect(drawn.writes).toEqual(['\r5 B received\x1b[K', '\r\x1b[K']);
  });
});

describe('ProgressBar.waiting', () => {
  it('says the upload is done and counts the seconds until clear()', () => {
    vi.useFakeTimers();
    try {
      let written = '';
      let t = 0;
      const bar = new ProgressBar({ write: (s) => (written += s), columns: 80 }, 2_600_000, {
        now: () => t,
      });
      bar.update(2_600_000);
      bar.waiting('the server is importing');
      expect(written.endsWith('\r2.6 MB sent; the server is importing (0 s)\x1b[K')).toBe(true);
      t = 3_000;
      vi.advanceTimersByTime(3_000);
      expect(written.endsWith('\r2.6 MB sent; the server is importing (3 s)\x1b[K')).toBe(true);
      bar.clear();
      t = 9_000;
      vi.advanceTimersByTime(6_000);
      expect(written.endsWith('\r\x1b[K')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
