import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The E.164 form of a number written in E.164 (`+` and digits), or null when it is not a possible number. */
export function normalizeE164(input: string): string | null {
  if (!/^\+[1-9]\d{6,14}$/.test(input)) return null;
  const n = parsePhoneNumberFromString(input);
  return n?.isPossible() ? n.number : null;
}

/** For schema checks: null when valid, else the reason. */
export function e164Problem(value: unknown): string | null {
  return typeof value === 'string' && normalizeE164(value) !== null
    ? null
    : 'must be a possible phone number in E.164 form, such as +14155550123';
}
