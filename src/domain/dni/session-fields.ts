import type { SessionRow } from './ports.js';

/** A session's click ids in the API's words and order (webhook payloads, admin views). */
export const clickIdsOf = (s: SessionRow) => ({
  gclid: s.gclid,
  gbraid: s.gbraid,
  wbraid: s.wbraid,
  fbclid: s.fbclid,
  fbc: s.fbc,
  fbp: s.fbp,
  msclkid: s.msclkid,
});

/** A session's UTM tags in the API's words and order. */
export const utmOf = (s: SessionRow) => ({
  source: s.utmSource,
  medium: s.utmMedium,
  campaign: s.utmCampaign,
  term: s.utmTerm,
  content: s.utmContent,
});
