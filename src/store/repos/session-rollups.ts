/**
 * The DNI batch statement with its report counters (docs/reporting.md, "Read
 * model"): the same statement appends one delta row per cell, with every key
 * (grain 3; report_compact adds it to every grain), to report_traffic_deltas,
 * so a batch of 64 sessions costs one grouped insert, not 64 trigger calls,
 * and takes no lock another batch waits for.
 *
 * A new session counts in the cell of its creation, with the keys of its own
 * request; a renewal (outcome `sticky`) in the cell of the renewal, with the
 * keys of the session it renews: the session row, or, when the session was
 * opened earlier in the same batch (invisible to this statement's snapshot),
 * that request's attributes. Sessions flagged ambiguous later are counted by
 * a trigger (migration 0022).
 */
export function withSessionRollups(batch: string): string {
  return `with b as materialized (${batch}),
  -- Materialized: the attributes (a) are read by ten expressions below, each of which would otherwise carry
  -- its own copy of the session lookup.
  r as materialized (
    select b.ord, b.outcome, b.campaign_id, b.tracking_number, ($1::text[])[b.ord] as org_id,
      ($4::timestamptz[])[b.ord] as at,
      -- The request whose keys ($7–$10, worked out by the server) the row counts with: its own,
      -- or for a renewal of a session opened earlier in the batch, that request's.
      case when b.outcome <> 'sticky' then b.ord else n.ord end as keyed,
      -- Else a renewal's keys come from the session row it renews. By key, for this row alone:
      -- a join here was planned, on a table without statistics, as a hash of a sequential scan
      -- of every session, per batch.
      case when b.outcome = 'sticky' and n.ord is null then
        (select jsonb_build_object('utm_source', s.utm_source, 'gclid', s.gclid,
           'gbraid', s.gbraid, 'wbraid', s.wbraid, 'fbclid', s.fbclid, 'fbc', s.fbc,
           'msclkid', s.msclkid, 'utm_medium', s.utm_medium,
           'utm_campaign', s.utm_campaign, 'landing_url', s.landing_url)
           from dni_sessions s where s.id = b.session_id)
      end as a
    from b
    left join lateral (
      select b2.ord from b b2
       where b.outcome = 'sticky' and b2.session_id = b.session_id and b2.outcome <> 'sticky'
       limit 1) n on true
    where b.outcome in ('allocated', 'shared', 'overflow', 'sticky')
  ),
  k as (
    select r.org_id, report_quarter(r.at) as bucket, r.campaign_id, r.tracking_number, r.outcome,
      case when r.keyed is not null then lower(($7::text[])[r.keyed])
        else report_source(r.a->>'utm_source', r.a->>'gclid', r.a->>'gbraid', r.a->>'wbraid',
          r.a->>'fbclid', r.a->>'fbc', r.a->>'msclkid') end as source,
      case when r.keyed is not null then ($8::text[])[r.keyed]
        else coalesce(r.a->>'utm_medium', '') end as medium,
      case when r.keyed is not null then ($9::text[])[r.keyed]
        else coalesce(r.a->>'utm_campaign', '') end as utm_campaign,
      case when r.keyed is not null then ($10::text[])[r.keyed]
        else coalesce(report_path(r.a->>'landing_url'), '') end as landing_path
    from r
  ),
  d as (
    insert into report_traffic_deltas (grain, org_id, bucket, campaign_id, source, medium,
      utm_campaign, landing_path, attribution, tracking_number,
      sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals)
    select 3, k.org_id, k.bucket, k.campaign_id, k.source, k.medium, k.utm_campaign,
      k.landing_path, '', k.tracking_number,
      count(*) filter (where k.outcome <> 'sticky'),
      count(*) filter (where k.outcome = 'shared'),
      count(*) filter (where k.outcome = 'overflow'),
      count(*) filter (where k.outcome in ('shared', 'overflow')),
      count(*) filter (where k.outcome = 'sticky')
    from k
    group by 2, 3, 4, 5, 6, 7, 8, 10
  )
  select b.* from b`;
}
