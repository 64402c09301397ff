/** Examples for the admin OpenAPI document, merged in ../examples.ts. */
/** Success answers of the system operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
  'GET /healthz': { status: 'ok' },
  'GET /admin/readyz': {
    status: 'degraded',
    checks: {
      store: { status: 'ok' },
      suppression_lists: {
        status: 'degraded',
        detail:
          '1 organization(s) with a stale national do-not-call list: marketing touches below pewc are blocked once stale',
      },
    },
  },
};

/** Answers that are not JSON, by media type of the system operations, by `METHOD /url`. */
export const textResponseExamples: Record<string, Record<string, string>> = {
  'GET /metrics': {
    'text/plain': [
      '# HELP http_requests_total Requests by route and status',
      '# TYPE http_requests_total counter',
      'http_requests_total{method="POST",route="/v1/dni/sessions",status="200"} 1532',
      '',
    ].join('\n'),
  },
};
