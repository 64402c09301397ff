import { readFileSync } from 'node:fs';
import type { SessionOpenRequest, SessionOpenResult } from '../src/domain/dni/ports.js';
import type { Store } from '../src/store/db.js';
import {
  type BatchRow,
  batchResults,
  openSessions,
  REQUEST_ARGS,
  requestArrays,
} from '../src/store/repos/dni.js';

/**
 * Allocation policies the simulator can replay a trace with: the service's own
 * (clock: dni_open_sessions, migration 0017) and, for comparison only, the
 * ones of sim/policies.sql, installed in the simulator's scratch database.
 */
export const POLICIES = ['clock', 'lrr', 'quarantine'] as const;
export type Policy = (typeof POLICIES)[number];

export function isPolicy(s: string): s is Policy {
  return (POLICIES as readonly string[]).includes(s);
}

const installed = new WeakSet<Store>();

/** Creates the comparison functions (and the old policy's indexes) once per store. */
export async function installPolicies(store: Store): Promise<void> {
  if (installed.has(store)) return;
  const text = readFileSync(new URL('./policies.sql', import.meta.url), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    if (statement.replace(/--.*$/gm, '').trim()) await store.query(statement, []);
  }
  installed.add(store);
}

/** openSessions, through the policy's batch function (the same arguments and rows). */
export async function openSessionsWith(
  store: Store,
  policy: Policy,
  requests: readonly SessionOpenRequest[],
): Promise<SessionOpenResult[]> {
  if (policy === 'clock') return openSessions(store, requests);
  await installPolicies(store);
  const rows = await store.query<BatchRow>(
    `select * from dni_open_sessions_${policy}(${REQUEST_ARGS})`,
    requestArrays(requests),
  );
  return batchResults(requests.length, rows);
}
