/**
 * Canada's telemarketing hours, for every touch to a Canadian number whatever the campaign's
 * purpose or its own window (the campaign can only narrow them).
 *
 * _source: CRTC Unsolicited Telecommunications Rules, Part III (Telemarketing Rules), s. 11:
 * 09:00-21:30 on weekdays and 10:00-18:00 on Saturdays and Sundays, in the called person's local
 * time [P]; /work/shared/compliance-rules.md Part B §2.4. The US federal 08:00-21:00 window still
 * applies as for every number (the stricter reading: the service places calls under US rules),
 * so a Canadian weekday is 09:00-21:00 in practice.
 */
import type { StateRule } from './state-rules.js';

export const CANADA_RULE: StateRule = {
  restrictions: [
    {
      days: {
        mon: { start: '09:00', end: '21:30' },
        tue: { start: '09:00', end: '21:30' },
        wed: { start: '09:00', end: '21:30' },
        thu: { start: '09:00', end: '21:30' },
        fri: { start: '09:00', end: '21:30' },
        sat: { start: '10:00', end: '18:00' },
        sun: { start: '10:00', end: '18:00' },
      },
    },
  ],
  confidence: 'P',
  source: 'CRTC Unsolicited Telecommunications Rules, Part III s. 11; §2.4',
};
