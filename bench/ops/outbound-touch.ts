import { createRepositories } from '../../src/store/repos/index.js';
import type { DirectOperation } from '../direct.js';
import { benchOutboundTouch, seedOutboundBench } from '../outbound-hook.js';

/** Contacts with consent on file; far more than calls in flight, so no contact is capped. */
const CONTACTS = 5_000;

/** One outbound touch decision + enqueue per call (the route's work minus HTTP). */
export const operation: DirectOperation = (store, seed) => {
  const orgId = seed.orgId as string;
  const campaignCode = seed.campaignCode as string;
  // Consents are seeded once, inside the warm-up, before the first touch.
  const seeded = seedOutboundBench(createRepositories(store), { orgId, contacts: CONTACTS });
  const touch = benchOutboundTouch(store, { orgId, campaignCode, contacts: CONTACTS });
  return async () => {
    await seeded;
    const reply = await touch();
    if (reply.statusCode !== 202) throw new Error(`touch not queued: ${reply.body}`);
    return reply;
  };
};
