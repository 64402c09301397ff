import { randomBytes } from 'node:crypto';
import { createDniSession } from '../../src/domain/dni/sessions.js';
import type { DirectOperation } from '../direct.js';

/** The allocation transaction the route runs, minus HTTP: one new visitor per call. */
export const operation: DirectOperation = (store, seed) => {
  const run = randomBytes(4).toString('hex');
  let n = 0;
  const orgId = seed.orgId as string;
  const code = seed.campaignCode as string;
  return () =>
    createDniSession(
      store,
      orgId,
      { campaign_code: code, visitor_id: `s-${run}-${n++}` },
      new Date(),
    );
};
