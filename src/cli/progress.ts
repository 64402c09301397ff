import type { Writer } from './output.js';

/** 1234567 → "1.2 MB": decimal units, as download tools show them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = -1;
  do {
    v /= 1000;
    i++;
  } while (v >= 999.95 && i < units.length - 1);
  return `${v.toFixed(1)} ${units[i]}`;
}

/**
 * One line of progress for `columns` characters: a bar and a percentage
 * when the total is known, else just the bytes so far. Always shorter than
 * `columns` (5 or more), so the terminal never wraps it and `\r` redraws it
 * in place.
 */
export function progressLine(done: number, total: number | null, columns: number): string {
  if (total === null) return `${formatBytes(done)} received`.slice(0, columns - 1);
  const fraction = total === 0 ? 1 : Math.min(1, done / total);
  const percent = `${String(Math.floor(fraction * 100)).padStart(3)}%`;
  const text = `${percent}  ${formatBytes(done)} of ${formatBytes(total)}`;
  const width = Math.min(40, columns - 1 - text.length - 3);
  if (width < 5) return percent;
  const filled = Math.floor(fraction * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${text}`;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * One line of an import's progress on the server: rows processed of the total, as a bar and a
 * percentage, and the rate so far (null until there is one). Shorter than `columns`.
 */
export function rowsLine(
  done: number,
  total: number,
  perSecond: number | null,
  columns: number,
): string {
  const fraction = total === 0 ? 1 : Math.min(1, done / total);
  const percent = `${String(Math.floor(fraction * 100)).padStart(3)}%`;
  const rate = perSecond === null ? '' : `, ${count(perSecond)} rows/s`;
  const text = `${percent}  ${count(done)} of ${count(total)} rows${rate}`;
  const width = Math.min(30, columns - 1 - text.length - 3);
  if (width < 5) return text.slice(0, columns - 1);
  const filled = Math.floor(fraction * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${text}`;
}

export interface ProgressOptions {
  /** Milliseconds, for throttling only. */
  now?: () => number;
  /** At most one redraw per interval, so a fast download does not flood the terminal. */
  intervalMs?: number;
}

/** A progress line on a terminal, redrawn in place and erased when done. */
export class ProgressBar {
  private readonly now: () => number;
  private readonly intervalMs: number;
  private drawnAt = Number.NEGATIVE_INFINITY;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly out: Writer,
    private readonly total: number | null,
    o: ProgressOptions = {},
  ) {
    this.now = o.now ?? (() => performance.now());
    this.intervalMs = o.intervalMs ?? 100;
  }

  /** The last state is always drawn, so a finished download shows 100% before it is erased. */
  update(done: number): void {
    const complete = this.total !== null && done >= this.total;
    const t = this.now();
    if (!complete && t - this.drawnAt < this.intervalMs) return;
    this.drawnAt = t;
    this.out.write(`\r${progressLine(done, this.total, this.out.columns || 80)}\x1b[K`);
  }

  /**
   * The upload is complete and the server is still at work (an import of a few MB takes it
   * seconds): say so at once, then count the seconds, instead of a finished bar that sits
   * still until the answer comes.
   */
  waiting(what: string): void {
    if (this.ticker || this.total === null) return;
    const since = this.now();
    const draw = () => {
      const seconds = Math.floor((this.now() - since) / 1000);
      const line = `${formatBytes(this.total ?? 0)} sent; ${what} (${seconds} s)`;
      this.drawnAt = this.now();
      this.out.write(`\r${line.slice(0, (this.out.columns || 80) - 1)}\x1b[K`);
    };
    draw();
    this.ticker = setInterval(draw, 1000);
    this.ticker.unref?.();
  }

  private rowsFrom: { at: number; done: number } | undefined;

  /**
   * The server's progress through the rows, once it reports it (an import with progress lines):
   * replaces the waiting line; the rate counts from the first report.
   */
  rows(done: number, total: number): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    const t = this.now();
    const first = this.rowsFrom === undefined;
    this.rowsFrom ??= { at: t, done };
    const seconds = (t - this.rowsFrom.at) / 1000;
    const rate = seconds > 0 ? (done - this.rowsFrom.done) / seconds : null;
    if (!first && done < total && t - this.drawnAt < this.intervalMs) return;
    this.drawnAt = t;
    this.out.write(`\r${rowsLine(done, total, rate, this.out.columns || 80)}\x1b[K`);
  }

  /** Leaves the cursor at the start of an empty line, for whatever is printed next. */
  clear(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    if (this.drawnAt !== Number.NEGATIVE_INFINITY) this.out.write('\r\x1b[K');
  }
}
