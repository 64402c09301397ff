import { grantEvent } from '../src/domain/consents/consents.js';
import { executeTouch, type TouchReply } from '../src/domain/outbound/touches.js';
import type { Repositories } from '../src/domain/repositories.js';
import type { Store } from '../src/store/db.js';
import { createRepositories } from '../src/store/repos/index.js';

/**
 * Hooks for `npm run bench`: the outbound row measures one touch decision and enqueue (the
 * route's work minus HTTP), as the DNI store-ceiling row does for createDniSession.
 */

/** Monday 2 March 2026, 10:00 in New York: inside every window for the 212 contacts below. */
const BASE_MS = Date.parse('2026-03-02T15:00:00Z');
const DAY_MS = 86_400_000;

/** Distinct, possible New York numbers (no state rules, one zone). */
export function benchContact(i: number): string {
  return `+1212${String(2_000_000 + (i % 7_000_000)).padStart(7, '0')}`;
}

/** pewc on file for `contacts` numbers of the organization, in one transaction. */
export async function seedOutboundBench(
  repos: Repositories,
  seed: { orgId: string; contacts: number },
): Promise<void> {
  const at = new Date(BASE_MS - DAY_MS);
  const by = { orgId: seed.orgId, actor: 'bench', requestId: null, at };
  await repos.transaction(async (tx) => {
    for (let i = 0; i < seed.contacts; i += 1000) {
      const batch = [];
      for (let j = i; j < Math.min(seed.contacts, i + 1000); j++) {
        batch.push(grantEvent(benchContact(j), { tier: 'pewc' }, at.getTime()));
      }
      await repos.consents.appendConsentEvents(tx, by, batch);
    }
  });
}

/**
 * One call = one `executeTouch` (consent read, contact lock, frequency read, evaluation, touch,
 * dispatch job, audit line) to the next seeded contact. Each pass over the contacts moves the
 * decision time two days on, so frequency caps never block and every call enqueues a job. Seed
 * more contacts than calls in flight: touches decided "later" that commit first count as
 * placed, so a contact several passes ahead of itself would be capped.
 */
export function benchOutboundTouch(
  store: Store,
  seed: { orgId: string; campaignCode: string; contacts: number },
): () => Promise<TouchReply> {
  const repos = createRepositories(store);
  let n = 0;
  return () => {
    const i = n++;
    const pass = Math.floor(i / seed.contacts);
    return executeTouch(
      repos,
      { orgId: seed.orgId, actor: 'bench', requestId: null },
      seed.campaignCode,
      { to_e164: benchContact(i % seed.contacts), channel: 'sms', consent_basis: 'pewc' },
      BASE_MS + pass * 2 * DAY_MS + (i % 1000),
    );
  };
}
