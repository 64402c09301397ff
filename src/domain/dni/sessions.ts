import { errors } from '../../errors.js';
import type { Store } from '../../store/db.js';
import { type OpenedSession, openSession, type SessionAttributes } from '../../store/repos/dni.js';
import { newId } from '../ids.js';
import { parseLandingUrl } from './landing-url.js';

export interface DniSessionRequest {
  campaign_code: string;
  visitor_id: string;
  fbc?: string | null;
  fbp?: string | null;
  gclid?: string | null;
  landing_url?: string | null;
}

/** What is stored for attribution: the body's click ids win over those read from landing_url. */
export function sessionAttributes(req: DniSessionRequest, now: Date): SessionAttributes {
  const landing = parseLandingUrl(req.landing_url);
  return {
    ...landing,
    gclid: req.gclid ?? landing.gclid ?? null,
    // Meta accepts an fbc built from fbclid when the _fbc cookie is missing.
    fbc: req.fbc ?? (landing.fbclid ? `fb.1.${now.getTime()}.${landing.fbclid}` : null),
    fbp: req.fbp ?? null,
    landing_url: req.landing_url ?? null,
  };
}

export async function createDniSession(
  store: Store,
  orgId: string,
  req: DniSessionRequest,
  now: Date,
): Promise<OpenedSession> {
  const opened = await openSession(
    store,
    orgId,
    req.campaign_code,
    req.visitor_id,
    now,
    newId('ds', now.getTime()),
    sessionAttributes(req, now),
  );
  if (!opened) throw errors.campaignNotFound();
  return opened;
}
