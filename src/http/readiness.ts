import { randomBytes } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { withinBudget } from '../domain/time-budget.js';

export type DependencyState = 'ok' | 'degraded' | 'down';

export interface DependencyReport {
  status: DependencyState;
  /** What is wrong, in a few words; absent when ok. */
  detail?: string;
}

/** One dependency /readyz asks about. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<DependencyReport>;
  /**
   * The state when the check fails or does not answer within the budget: `down` unless the
   * service keeps serving without the dependency (Redis: rate limits count in process).
   */
  unavailable?: 'degraded' | 'down';
}

export interface Readiness {
  status: DependencyState;
  checks: Record<string, DependencyReport>;
}

function checkWithinBudget(check: ReadinessCheck, budgetMs: number): Promise<DependencyReport> {
  const status = check.unavailable ?? 'down';
  const answer = check.check().catch(
    (err: unknown): DependencyReport => ({
      status,
      detail: (err as { code?: string }).code ?? (err as Error).message ?? 'failed',
    }),
  );
  return withinBudget(answer, budgetMs, () => ({
    status,
    detail: `no answer within ${budgetMs} ms`,
  }));
}

/**
 * Every check at once, each within the budget. Overall: down if any is down
 * (the process should not get traffic), degraded if any is degraded (it
 * serves, with less than it should), else ok.
 */
export async function readiness(checks: ReadinessCheck[], budgetMs: number): Promise<Readiness> {
  const reports = await Promise.all(checks.map((c) => checkWithinBudget(c, budgetMs)));
  const out: Readiness = { status: 'ok', checks: {} };
  checks.forEach((c, i) => {
    const r = reports[i]!;
    out.checks[c.name] = r;
    if (r.status === 'down') out.status = 'down';
    else if (r.status === 'degraded' && out.status === 'ok') out.status = 'degraded';
  });
  return out;
}

/** The public listener's answer: each dependency's state and nothing else. */
export interface PublicReadiness {
  status: DependencyState;
  checks: Record<string, { status: DependencyState }>;
}

/**
 * Details (a driver's error, the SQL text of a failed query, how many organizations have a
 * stale list) are for operators: /readyz on the public listener says each dependency's state
 * only, the admin listener's /admin/readyz says everything, and the log gets the details.
 */
export function publicView(readiness: Readiness): PublicReadiness {
  const checks: PublicReadiness['checks'] = {};
  for (const [name, c] of Object.entries(readiness.checks)) checks[name] = { status: c.status };
  return { status: readiness.status, checks };
}

/**
 * Logs a readiness answer with details when it differs from the last one logged (a probe every
 * few seconds during an outage would otherwise repeat the same lines), and when it is ok again.
 */
export function readinessLogger(log: (r: Readiness, recovered: boolean) => void) {
  let last = JSON.stringify({ status: 'ok', checks: {} });
  let lastOk = true;
  return (r: Readiness) => {
    const clean = r.status === 'ok' && Object.values(r.checks).every((c) => !c.detail);
    const text = JSON.stringify(clean ? { status: 'ok', checks: {} } : r);
    if (text === last) return;
    last = text;
    if (!clean || !lastOk) log(r, clean);
    lastOk = clean;
  };
}

export function storeCheck(store: { ping(): Promise<void> }): ReadinessCheck {
  return {
    name: 'store',
    async check() {
      await store.ping();
      return { status: 'ok' };
    },
  };
}

/** The data directory takes a write and an fsync: a full or read-only disk fails here. */
export function dataDirCheck(dir: string): ReadinessCheck {
  return {
    name: 'data_dir',
    async check() {
      const probe = join(dir, `.readyz-${randomBytes(4).toString('hex')}`);
      const fh = await open(probe, 'w');
      try {
        await fh.writeFile('ready\n');
        await fh.sync();
      } finally {
        await fh.close();
        await unlink(probe).catch(() => {});
      }
      return { status: 'ok' };
    },
  };
}
