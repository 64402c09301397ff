-- What recording inbound calls reads, one row for each rung number that belongs to a campaign
-- (ord: the number's place in p_numbers, from 1): its organization and campaign, the campaign's
-- code and forward-to number, the number's latest p_sessions DNI sessions opened by the call's
-- time (the live holders of a shared number and its last holder), the caller's latest
-- attributed session in the campaign (a repeat call), and whether an enabled webhook endpoint of
-- the organization takes call.received. src/store/repos/calls.ts records the calls from it.
--
-- A function, so that a voice webhook can send it in the same round trip as its `begin` and its
-- lock (carrier_calls_locked; docs/routing.md, "A whole call") as plain text and still keep its
-- plan: PL/pgSQL caches the plan of its query as a prepared statement would.
CREATE OR REPLACE FUNCTION calls_gathered(p_numbers text[], p_ats timestamptz[],
                                          p_callers text[], p_sessions int)
RETURNS TABLE (ord int, org_id text, campaign_id text, code text, forward_to text, held json,
               repeat_session_id text, wants_event boolean)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  select u.ord::int, t.org_id, t.campaign_id, c.code, c.forward_to,
         (select coalesce(json_agg(json_build_object(
                   'id', s.id,
                   'created_ms', floor(extract(epoch from s.created_at) * 1000)::bigint,
                   'expires_ms', floor(extract(epoch from s.expires_at) * 1000)::bigint)
                 order by s.created_at desc), '[]'::json)
            from (select s.id, s.created_at, s.expires_at from dni_sessions s
                   where s.org_id = t.org_id and s.tracking_number = u.num
                     and s.created_at <= u.at
                   order by s.created_at desc
                   limit p_sessions) s),
         (select r.dni_session_id from calls r
           where r.campaign_id = t.campaign_id and r.from_number = u.caller
             and r.dni_session_id is not null and r.started_at <= u.at
           order by r.started_at desc
           limit 1),
         exists (select 1 from webhook_endpoints e
                  where e.org_id = t.org_id and e.enabled
                    and ('call.received' = any(e.events) or '*' = any(e.events)))
    from unnest(p_numbers, p_ats, p_callers) with ordinality as u(num, at, caller, ord)
    join number_owners o on o.e164 = u.num
    join tracking_numbers t on t.org_id = o.org_id and t.e164 = o.e164
    join campaigns c on c.id = t.campaign_id;
END $$;
