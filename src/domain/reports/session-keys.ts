import type { SessionAttributes } from '../dni/ports.js';
import { aliasOf, foldSpacing } from './sources.js';

/**
 * The report keys of a new session, worked out from its request's attributes in the server
 * rather than in the DNI batch statement, where a regular expression for the path and the
 * attributes' jsonb cost the embedded store a tenth of its DNI throughput. They are what the
 * stored functions report_source and report_path (src/store/sql) give for the same values, the
 * source before lower(), which the statement applies so that lowercase is the database's
 * (test/http/report-keys.test.ts holds both to the same answers, on both stores).
 */
export interface SessionReportKeys {
  source: string;
  medium: string;
  utmCampaign: string;
  landingPath: string;
}

/** A visit's click ids, as requests and session rows name them. */
export interface ClickIds {
  gclid?: string | null;
  gbraid?: string | null;
  wbraid?: string | null;
  fbclid?: string | null;
  fbc?: string | null;
  msclkid?: string | null;
}

/** The network of a visit's click id (contract §8), else `direct`. */
export function clickNetwork(clickIds: ClickIds): string {
  if (clickIds.gclid || clickIds.gbraid || clickIds.wbraid) return 'google';
  if (clickIds.fbclid || clickIds.fbc) return 'meta';
  if (clickIds.msclkid) return 'microsoft';
  return 'direct';
}

/**
 * report_source without its lower(): utm_source with its spacing folded and an alias made its
 * network's name (docs/reporting.md#sources), else the click id's network. The batch statement
 * lowercases it and applies report_source_alias again, so lowercase stays the database's.
 */
export function reportSourceOf(attributes: SessionAttributes): string {
  const utm = foldSpacing(attributes.utm_source ?? '');
  if (!utm) return clickNetwork(attributes);
  return aliasOf(utm.toLowerCase()) ?? utm;
}

/** report_path's two expressions in one: an optional scheme and authority, then the path. */
const PATH = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)?([^?#]*)/;

/** coalesce(report_path(url), ''): the URL's path, '/' when empty, '' without a URL. */
export function reportPathOf(url: string | null | undefined): string {
  if (url === null || url === undefined || url === '') return '';
  return PATH.exec(url)?.[1] || '/';
}

export function sessionReportKeys(attributes: SessionAttributes): SessionReportKeys {
  return {
    source: reportSourceOf(attributes),
    medium: attributes.utm_medium ?? '',
    utmCampaign: attributes.utm_campaign ?? '',
    landingPath: reportPathOf(attributes.landing_url),
  };
}
