import { errors } from '../../errors.js';
import { newId } from '../ids.js';
import type { SessionBatcher } from './batcher.js';
import { parseLandingUrl } from './landing-url.js';
import type { OpenedSession, SessionAttributes } from './ports.js';

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

/**
 * Opens or renews the visitor's session (contract §3) through the batcher:
 * concurrent requests share one transaction, each with its own outcome.
 */
export async function createDniSession(
  sessions: Pick<SessionBatcher, 'open'>,
  orgId: string,
  req: DniSessionRequest,
  now: Date,
): Promise<OpenedSession> {
  const opened = await sessions.open({
    orgId,
    campaignCode: req.campaign_code,
    visitorId: req.visitor_id,
    now,
    newSessionId: newId('ds', now.getTime()),
    attrs: sessionAttributes(req, now),
  });
  if ('sessionId' in opened) return opened;
  if (opened.outcome === 'campaign_not_found') throw errors.campaignNotFound();
  // The admin API never leaves a campaign without a pool number (minItems 1).
  throw new Error(`campaign ${req.campaign_code} has no numbers`);
}
