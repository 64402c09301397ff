/** Nearest-rank percentile of an ascending array; 0 when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Busy and total jiffies of all CPUs (Linux /proc/stat); null elsewhere. */
export async function machineTicks(): Promise<{ busy: number; total: number } | null> {
  try {
    const { readFile } = await import('node:fs/promises');
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!;
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Cores the rest of the machine keeps busy while none of ours runs (other jobs skew a run). */
export async function backgroundCores(ms = 1000): Promise<number | null> {
  const t0 = await machineTicks();
  await new Promise((r) => setTimeout(r, ms));
  const t1 = await machineTicks();
  if (!t0 || !t1 || t1.total <= t0.total) return null;
  const { cpus } = await import('node:os');
  return ((t1.busy - t0.busy) / (t1.total - t0.total)) * cpus().length;
}
