-- A call's counters in the cells of its facts row.
CREATE OR REPLACE FUNCTION report_add_call(f report_calls, p_m bigint[]) RETURNS void LANGUAGE sql AS $$
  SELECT report_traffic_add(f.org_id, report_quarter(f.started_at), f.campaign_id, f.source, f.medium,
    f.utm_campaign, f.landing_path, f.attribution, f.tracking_number, p_m)
$$;
