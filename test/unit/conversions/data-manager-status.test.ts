import { describe, expect, it } from 'vitest';
import { requestStatusResults } from '../../../src/adapters/ad-platforms/google-data-manager-status.js';
import { dataManagerType, protoProblems } from '../../helpers/vendor-definitions.js';

/** Google's report on a Data Manager request, row by row; each report judged by the protos. */
const report = (
  requestStatus: string,
  errors: [string, number][] = [],
  warnings: [string, number][] = [],
) => {
  const body = {
    requestStatusPerDestination: [
      {
        requestStatus,
        ...(errors.length > 0
          ? {
              errorInfo: {
                errorCounts: errors.map(([reason, n]) => ({ reason, recordCount: String(n) })),
              },
            }
          : {}),
        ...(warnings.length > 0
          ? {
              warningInfo: {
                warningCounts: warnings.map(([reason, n]) => ({ reason, recordCount: n })),
              },
            }
          : {}),
        eventsIngestionStatus: { recordCount: '2' },
      },
    ],
  };
  expect(protoProblems(dataManagerType('RetrieveRequestStatusResponse'), body)).toEqual([]);
  return body;
};

describe('requestStatusResults', () => {
  it('PROCESSING and no entry yet: checked again', () => {
    expect(requestStatusResults(report('PROCESSING'), 2)).toMatchObject([
      { state: 'retry', code: 'awaiting_confirmation' },
      { state: 'retry', code: 'awaiting_confirmation' },
    ]);
    expect(requestStatusResults({}, 1)[0]).toMatchObject({ code: 'awaiting_confirmation' });
  });

  it('SUCCESS: sent, with warnings in words', () => {
    expect(requestStatusResults(report('SUCCESS'), 1)).toEqual([{ state: 'sent' }]);
    expect(
      requestStatusResults(
        report('SUCCESS', [], [['PROCESSING_WARNING_REASON_INTERNAL_ERROR', 1]]),
        1,
      )[0],
    ).toEqual({
      state: 'sent',
      note: 'Google processed it with warnings: PROCESSING_WARNING_REASON_INTERNAL_ERROR ×1',
    });
  });

  it('FAILED for one reason: every row by that reason', () => {
    expect(
      requestStatusResults(report('FAILED', [['PROCESSING_ERROR_REASON_INVALID_GCLID', 2]]), 2),
    ).toMatchObject([
      { state: 'failed', code: 'rejected_by_platform' },
      { state: 'failed', code: 'rejected_by_platform' },
    ]);
    expect(
      requestStatusResults(report('FAILED', [['PROCESSING_ERROR_REASON_INTERNAL_ERROR', 1]]), 1)[0],
    ).toMatchObject({ state: 'retry', code: 'server_error', resend: 'again' });
    expect(
      requestStatusResults(
        report('FAILED', [['PROCESSING_ERROR_REASON_DUPLICATE_GCLID', 1]]),
        1,
      )[0],
    ).toMatchObject({ state: 'sent' });
  });

  it('PARTIAL_SUCCESS, or FAILED for several reasons over several rows: each sent again alone', () => {
    const alone = { state: 'retry', code: 'processed_in_part', resend: 'alone', retryAfterMs: 0 };
    expect(
      requestStatusResults(
        report('PARTIAL_SUCCESS', [['PROCESSING_ERROR_REASON_EVENT_TOO_OLD', 1]]),
        2,
      ),
    ).toMatchObject([alone, alone]);
    expect(
      requestStatusResults(
        report('FAILED', [
          ['PROCESSING_ERROR_REASON_EVENT_TOO_OLD', 1],
          ['PROCESSING_ERROR_REASON_INVALID_GCLID', 1],
        ]),
        2,
      ),
    ).toMatchObject([alone, alone]);
  });
});
