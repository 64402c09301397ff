import type { ConversionRow } from '../../../src/domain/exports/index.js';

/**
 * The successful calls of the export fixture, oldest first: the golden files
 * in test/golden are this fixture exported at EXPORT_NOW. The HTTP test
 * builds the same calls through the API (see test/http/exports.test.ts).
 */
export const EXPORT_NOW = new Date('2026-03-12T12:00:00Z');
export const EXPORT_SINCE = '2026-03-01T00:00:00Z';

export const CONVERSION_CONFIG = {
  name: 'Phone lead, "qualified"',
  value: 125.5,
  currency: 'USD',
  time_zone: 'America/New_York',
};

export const FIXTURE: Record<'e' | 'a' | 'b' | 'd', ConversionRow> = {
  // A campaign-only call: no session, so no click id for either format.
  e: {
    callId: 'call_e',
    eventId: 'evt_0000000000000000000000000000e001',
    startedAt: new Date('2026-03-02T14:00:00Z'),
    gclid: null,
    fbc: null,
    fbp: null,
  },
  // Every click id, but 10 days before the export: too old for Meta.
  a: {
    callId: 'call_a',
    eventId: 'evt_0000000000000000000000000000a001',
    startedAt: new Date('2026-03-02T15:01:00Z'),
    gclid: 'EAIaIQobChMI-A1_x',
    fbc: 'fb.1.1772463600000.IwAR-A',
    fbp: 'fb.1.1772463600000.1111111111',
  },
  // Only the Meta browser id, after the US switch to daylight time.
  b: {
    callId: 'call_b',
    eventId: 'evt_0000000000000000000000000000b001',
    startedAt: new Date('2026-03-09T14:00:00Z'),
    gclid: null,
    fbc: null,
    fbp: 'fb.1.1773064740000.2222222222',
  },
  // Rejected first, then success: the success event is the one exported.
  d: {
    callId: 'call_d',
    eventId: 'evt_0000000000000000000000000000d002',
    startedAt: new Date('2026-03-10T12:00:00Z'),
    gclid: 'EAIaIQobChMI-D4',
    fbc: 'fb.1.1773143940000.IwAR-D',
    fbp: null,
  },
};

export const FIXTURE_ROWS: ConversionRow[] = [FIXTURE.e, FIXTURE.a, FIXTURE.b, FIXTURE.d];
