import { AppError } from '../../../errors.js';
import type { OrgContext } from '../../context.js';
import type { FormState } from '../../forms.js';
import { readNumber, readNumbers } from '../../phone.js';

export const NOTICES: Record<string, string> = {
  created: 'Campaign created. Put its numbers on your site with the website kit.',
  added: 'Numbers added to the pool.',
  removed: 'Number removed. A visitor holding it keeps it until their session ends.',
  saved: 'Campaign settings saved.',
};

export const COUNTRY_HINT = (ctx: OrgContext) =>
  `Numbers without a country code are read as ${ctx.org.phoneCountry} numbers.`;

/** The numbers of a box, or the message for the field (what could not be read, as typed). */
export function numbersField(
  f: FormState,
  name: string,
  text: string,
  country: string,
  required: boolean,
): string[] {
  const { numbers, bad } = readNumbers(text, country);
  if (bad.length > 0)
    f.errors[name] =
      `Not a phone number: ${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}. The others are kept; correct or remove these.`;
  else if (required && numbers.length === 0) f.errors[name] = 'Enter at least one number.';
  return numbers;
}

export function oneNumber(
  f: FormState,
  name: string,
  text: string,
  country: string,
): string | null {
  const t = text.trim();
  if (!t) return null;
  const n = readNumber(t, country);
  if (n === null) f.errors[name] = `Not a phone number: ${t}`;
  return n;
}

/** The reason a 409 of the admin domain gives, as the field it belongs to. */
export function conflictField(f: FormState, err: unknown, fields: Record<string, string>): boolean {
  if (!(err instanceof AppError) || err.code !== 'conflict') return false;
  const reason = String(err.extra.reason ?? '');
  if (reason === 'campaign_code_taken') f.errors.code = 'This code is taken: choose another.';
  else if (reason.startsWith('number_in_use')) {
    const taken = reason.replace(/^number_in_use:\s*/, '');
    const field =
      Object.entries(fields).find(([, v]) => taken.split(', ').some((n) => v.includes(n)))?.[0] ??
      'numbers';
    f.errors[field] = `Already in use by a campaign: ${taken}`;
  } else return false;
  return true;
}

export const canChange = (ctx: OrgContext) => ctx.role !== 'viewer';

/** The same-campaign loop: a forward-to that rings one of its own numbers. */
export const LOOP_MESSAGE =
  'This is one of the campaign’s own tracking numbers: calls would ring back into it. Enter the phone that should ring.';
