import { randomBytes } from 'node:crypto';
import { sessionBatcher } from '../../src/app.js';
import { createDniSession } from '../../src/domain/dni/sessions.js';
import type { DirectOperation } from '../direct.js';

/** The same through the route's batcher: what arrives while a batch is in flight goes in the next. */
export const operation: DirectOperation = (store, seed) => {
  const batched = sessionBatcher(store);
  const run = randomBytes(4).toString('hex');
  let n = 0;
  const orgId = seed.orgId as string;
  const code = seed.campaignCode as string;
  return () =>
    createDniSession(
      batched,
      orgId,
      { campaign_code: code, visitor_id: `b-${run}-${n++}` },
      new Date(),
    );
};
