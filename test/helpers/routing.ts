import { adminCall, type Harness } from './harness.js';

export { adminInject as admin } from './outbound.js';

let buyerSeq = 0;
/** A buyer number no test in this process shares: +1312555xxxx. */
export const buyerNumber = () => `+1312555${String(1000 + (buyerSeq++ % 9000)).padStart(4, '0')}`;

/** A new buyer of the organization (always open, no caps unless said). */
export async function createBuyer(h: Harness, orgId: string, body: Record<string, unknown> = {}) {
  return adminCall(h, 'POST', `/admin/orgs/${orgId}/buyers`, {
    name: 'Buyer',
    forward_to: buyerNumber(),
    ...body,
  });
}

export async function setRouting(
  h: Harness,
  orgId: string,
  code: string,
  body: Record<string, unknown>,
) {
  return adminCall(h, 'PUT', `/admin/orgs/${orgId}/campaigns/${code}/routing`, body);
}

/** A seeded uniform source (mulberry32): routing's draws, repeatable. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
