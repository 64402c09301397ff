import type { SessionRow } from './ports.js';

/** A session's click ids in the API's words and order (webhook payloads, admin views). */
export const clickIdsOf = (session: SessionRow) => ({
  gclid: session.gclid,
  gbraid: session.gbraid,
  wbraid: session.wbraid,
  fbclid: session.fbclid,
  fbc: session.fbc,
  fbp: session.fbp,
  msclkid: session.msclkid,
});

/** A session's UTM tags in the API's words and order. */
export const utmOf = (session: SessionRow) => ({
  source: session.utmSource,
  medium: session.utmMedium,
  campaign: session.utmCampaign,
  term: session.utmTerm,
  content: session.utmContent,
});
