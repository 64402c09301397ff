import {
  ADMIN_TOKEN,
  adminCall,
  bearer,
  createTenant,
  type Harness,
  type Tenant,
} from './harness.js';

/** Monday 2 March 2026, 10:00 in New York: inside every window for a 212 number. */
export const WEEKDAY_MORNING_ET = '2026-03-02T15:00:00Z';

const contactBase = 2_000_000 + Math.floor(Math.random() * 4_000_000);
let contactSeq = 0;
/** A fresh New York (212, Eastern, no state rules) contact, distinct within the test file. */
export function freshContact(areaCode = 212): string {
  return `+1${areaCode}${String(contactBase + contactSeq++).padStart(7, '0')}`;
}

export function touch(
  h: Harness,
  key: string,
  code: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return h.app.inject({
    method: 'POST',
    url: `/tracking/campaigns/${code}/outbound`,
    headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function grant(
  h: Harness,
  orgId: string,
  e164: string,
  body: Record<string, unknown> = { tier: 'pewc', captured_at: '2026-01-01T00:00:00Z' },
) {
  return adminCall(h, 'PUT', `/admin/orgs/${orgId}/consents/${encodeURIComponent(e164)}`, body);
}

export function revoke(
  h: Harness,
  orgId: string,
  e164: string,
  body: Record<string, unknown> = {},
) {
  return adminCall(
    h,
    'POST',
    `/admin/orgs/${orgId}/consents/${encodeURIComponent(e164)}/revoke`,
    body,
  );
}

export function setConfig(h: Harness, t: Tenant, config: Record<string, unknown>) {
  return adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, { config });
}

/** A tenant whose campaign has `config` and a contact with a pewc grant on file. */
export async function outboundTenant(
  h: Harness,
  o: { config?: Record<string, unknown>; scopes?: string[]; trackingEnabled?: boolean } = {},
) {
  const t = await createTenant(h, {
    ...(o.scopes ? { scopes: o.scopes } : {}),
    ...(o.trackingEnabled !== undefined ? { trackingEnabled: o.trackingEnabled } : {}),
  });
  if (o.config) await setConfig(h, t, o.config);
  await importNationalList(h, t.orgId, '');
  const contact = freshContact();
  await grant(h, t.orgId, contact, { tier: 'pewc', captured_at: '2026-01-01T00:00:00Z' });
  return { ...t, contact };
}

/**
 * Imports a national DNC file (numbers, one a line) dated the harness clock's day: every outbound
 * fixture has a fresh registry copy, so marketing touches below pewc are not `dnc_list_stale`.
 */
export async function importNationalList(
  h: Harness,
  orgId: string,
  file: string,
  query: Record<string, string> = {},
) {
  const qs = new URLSearchParams({
    list_date: new Date(h.clock.now()).toISOString().slice(0, 10),
    ...query,
  });
  const res = await h.admin.inject({
    method: 'POST',
    url: `/admin/orgs/${orgId}/suppression/national/import?${qs}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
    payload: file,
  });
  if (res.statusCode !== 200) throw new Error(`national import: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

/** An admin request whatever it answers (adminCall fails on anything but 2xx). */
export function adminInject(
  h: Harness,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return h.admin.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers },
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    ...(payload !== undefined && typeof payload !== 'string'
      ? {
          headers: {
            authorization: `Bearer ${ADMIN_TOKEN}`,
            'content-type': 'application/json',
            ...headers,
          },
        }
      : {}),
  });
}
