import { timingSafeEqual } from 'node:crypto';

/** Whether an Authorization header carries `token` as its bearer credential (constant time). */
export function sameToken(given: string | undefined, token: string): boolean {
  const m = given ? /^bearer +(\S+) *$/i.exec(given) : null;
  const a = Buffer.from(m?.[1] ?? '');
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
