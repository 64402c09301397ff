/** Examples for the admin OpenAPI document, merged in ../examples.ts. */
/** Success answers of the exports operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
  'GET /admin/orgs/:org_id/campaigns/:code/exports/conversions': {
    data: [
      {
        event_name: 'Lead',
        event_time: 1772463845,
        event_id: 'evt_019caf13ee8847f3d5380ce1a64106ad',
        action_source: 'phone_call',
        user_data: { fbc: 'fb.1.1772463792000.IwAR2xYz' },
        custom_data: { value: 25, currency: 'USD' },
      },
    ],
  },
};

/** Answers that are not JSON, by media type of the exports operations, by `METHOD /url`. */
export const textResponseExamples: Record<string, Record<string, string>> = {
  'GET /admin/orgs/:org_id/campaigns/:code/exports/conversions': {
    'text/csv': [
      'Parameters:TimeZone=America/Chicago',
      'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
      'Cj0KCQiA,Phone lead,2026-03-02 09:04:05-0600,25,USD',
      '',
    ].join('\n'),
  },
};
