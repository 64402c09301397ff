import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Numbers as people type them into the console: `212-555-0312`, `(212) 555-0312`
 * and `+1 212 555 0312` are one number; without a country code it is read in the
 * organization's country (orgs.phone_country). libphonenumber-js decides what a
 * possible number is, as the API's E.164 check does (src/domain/phone/e164.ts).
 */
export function readNumber(text: string, country: string): string | null {
  const t = text.trim();
  if (!t || t.length > 40 || !/^[+\d\s().\-/]+$/.test(t)) return null;
  const n = parsePhoneNumberFromString(t, country as CountryCode);
  return n?.isPossible() ? n.number : null;
}

export interface TypedNumbers {
  /** Each number read, in E.164, once, in the order typed. */
  numbers: string[];
  /** What could not be read as a number, as typed. */
  bad: string[];
}

/**
 * A box of numbers: one per line, or separated by commas or semicolons. A line
 * that is not one number but splits on spaces into numbers that each carry
 * their `+` (`+14155550100 +14155550101`) is read as those.
 */
export function readNumbers(text: string, country: string, max = 1000): TypedNumbers {
  const numbers: string[] = [];
  const bad: string[] = [];
  for (const piece of text.split(/[\r\n,;]+/)) {
    const t = piece.trim();
    if (!t) continue;
    const whole = readNumber(t, country);
    const parts = t.split(/\s+/);
    const each =
      whole === null && parts.length > 1 && parts.every((p) => p.startsWith('+'))
        ? parts.map((p) => readNumber(p, country))
        : [whole];
    each.forEach((n, i) => {
      if (n === null) bad.push(each.length > 1 ? parts[i]! : t);
      else if (!numbers.includes(n)) numbers.push(n);
    });
    if (numbers.length + bad.length >= max) break;
  }
  return { numbers, bad };
}
