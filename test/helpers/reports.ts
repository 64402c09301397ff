import { adminCall, bearer, type Harness, type Tenant } from './harness.js';

/** Records a call to one of the tenant's numbers through the admin API; returns its id. */
export async function recordCall(
  h: Harness,
  t: Tenant,
  o: { startedAt?: string; to?: string; from?: string } = {},
): Promise<string> {
  const call = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
    to: o.to ?? t.numbers[0],
    from: o.from ?? '+12125550100',
    ...(o.startedAt ? { started_at: o.startedAt } : {}),
  });
  return call.call_id;
}

export function report(
  h: Harness,
  key: string,
  code: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return h.app.inject({
    method: 'POST',
    url: `/dni/campaigns/${code}/buyer-report`,
    headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface AuditRow extends Record<string, unknown> {
  action: string;
  actor: string;
  subject_type: string;
  subject_id: string;
  detail: Record<string, unknown>;
  request_id: string | null;
}

export async function auditRows(h: Harness, orgId: string, action?: string): Promise<AuditRow[]> {
  return h.store.query<AuditRow>(
    `select action, actor, subject_type, subject_id, detail, request_id from audit_log
      where org_id = $1 and ($2::text is null or action = $2) order by seq`,
    [orgId, action ?? null],
  );
}

export async function eventRows(h: Harness, orgId: string) {
  return h.store.query<{
    id: string;
    call_id: string;
    report_id: string;
    disposition: string;
    notes: string | null;
  }>(
    'select id, call_id, report_id, disposition, notes from buyer_report_events where org_id = $1 order by seq',
    [orgId],
  );
}

export async function callRow(h: Harness, callId: string) {
  const [row] = await h.store.query<Record<string, unknown>>('select * from calls where id = $1', [
    callId,
  ]);
  return row;
}
