export { mergeConfig, requiredTier } from './config.js';
export { type ConsentCheck, type ConsentCode, checkConsent } from './consent.js';
export { evaluateTouch, revocationHold, type TouchDecision } from './evaluate.js';
export {
  capsFor,
  checkFrequency,
  type FrequencyCap,
  type FrequencyCapReport,
  type FrequencyCheck,
  type FrequencyInput,
  LONGEST_WINDOW_HOURS,
} from './frequency.js';
export { toMs } from './instant.js';
export {
  type Location,
  type ResolvedLocation,
  resolveLocation,
  type UnresolvedLocation,
} from './location.js';
export {
  checkQuietHours,
  nextQuietAllowed,
  type QuietHoursCheck,
  type QuietHoursInput,
  type QuietHoursZoneReport,
} from './quiet-hours.js';
export {
  checkReassigned,
  checkSuppression,
  isStale,
  NATIONAL_LIST_MAX_AGE_DAYS,
  type ReassignedCheck,
  type SuppressionCheck,
  type SuppressionCode,
} from './suppression.js';
export type * from './types.js';
export { isValidTimeZone } from './tz.js';
