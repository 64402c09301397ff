import type { SessionAttributes } from '../dni/ports.js';

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

const blank = (v: string | null | undefined) => v === null || v === undefined || v === '';

/** report_source without its lower(): the trimmed utm_source, else the click id's network. */
export function reportSourceOf(a: SessionAttributes): string {
  const utm = (a.utm_source ?? '').replace(/^ +| +$/g, '');
  if (utm !== '') return utm;
  if (!blank(a.gclid) || !blank(a.gbraid) || !blank(a.wbraid)) return 'google';
  if (!blank(a.fbclid) || !blank(a.fbc)) return 'meta';
  if (!blank(a.msclkid)) return 'microsoft';
  return 'direct';
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const AFTER_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/;
const BEFORE_QUERY = /^([^?#]*)/;

/** coalesce(report_path(url), ''): the URL's path, '/' when empty, '' without a URL. */
export function reportPathOf(url: string | null | undefined): string {
  if (url === null || url === undefined || url === '') return '';
  const m = (SCHEME.test(url) ? AFTER_AUTHORITY : BEFORE_QUERY).exec(url);
  return m?.[1] || '/';
}

export function sessionReportKeys(a: SessionAttributes): SessionReportKeys {
  return {
    source: reportSourceOf(a),
    medium: a.utm_medium ?? '',
    utmCampaign: a.utm_campaign ?? '',
    landingPath: reportPathOf(a.landing_url),
  };
}
