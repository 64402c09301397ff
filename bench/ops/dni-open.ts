import { randomBytes } from 'node:crypto';
import { SessionBatcher } from '../../src/domain/dni/batcher.js';
import { createDniSession } from '../../src/domain/dni/sessions.js';
import { dniSessionStore } from '../../src/store/repos/dni.js';
import type { DirectOperation } from '../direct.js';

/**
 * The allocation transaction the route runs, minus HTTP, one request per
 * statement (no batching): one new visitor per call.
 */
export const operation: DirectOperation = (store, seed) => {
  const single = new SessionBatcher(dniSessionStore(store), { inFlight: 1_000, maxSize: 1 });
  const run = randomBytes(4).toString('hex');
  let n = 0;
  const orgId = seed.orgId as string;
  const code = seed.campaignCode as string;
  return () =>
    createDniSession(
      single,
      orgId,
      { campaign_code: code, visitor_id: `s-${run}-${n++}` },
      new Date(),
    );
};
