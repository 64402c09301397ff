import type { Server } from 'node:http';

export interface SiteConfig {
  /** The tracking service's public API, e.g. https://tracking.example.com */
  apiUrl: string;
  /** An API key with the enroll scope. It stays on this server. */
  apiKey: string;
  /** The campaign code. */
  campaign: string;
  /** Shown when the service is slow or down: the campaign's main number. */
  defaultNumber: string;
  /** How long a page waits for the service (default 800 ms). */
  timeoutMs?: number;
  /** The site's public origin, https://www.example.com. */
  origin?: string;
}

export interface Visit {
  visitorId: string;
  landingUrl: string | null;
  gclid?: string | null;
  fbc?: string | null;
  fbp?: string | null;
}

export function createSite(config: SiteConfig): Server;
export function trackingNumber(
  config: SiteConfig,
  visit: Visit,
): Promise<{ number: string; tracked: boolean }>;
export function formatNumber(e164: string): string;
