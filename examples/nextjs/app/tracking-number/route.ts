// The kit's route as a Next.js route handler: GET /tracking-number answers the
// visitor's number ({"phoneNumber","formattedPhoneNumber","expiresAt"}) to the
// swap script. The key is read on the server and never reaches the browser.
import { nextTrackingNumber } from '@call-tracking/site';

// Per visitor: never prerendered or cached by Next.
export const dynamic = 'force-dynamic';

export const GET = nextTrackingNumber({
  apiUrl: process.env.TRACKING_API_URL ?? 'http://127.0.0.1:3000',
  apiKey: process.env.TRACKING_API_KEY ?? '',
  campaign: process.env.CAMPAIGN ?? 'spr',
  // The number written in the pages (app/page.tsx, app/about/page.tsx).
  defaultNumber: process.env.DEFAULT_NUMBER ?? '+14155550100',
  siteOrigin: process.env.SITE_ORIGIN,
  onFallback: (error) => console.warn('tracking number: default shown', error),
});
