import { randomFillSync } from 'node:crypto';

export type IdPrefix =
  | 'org'
  | 'key'
  | 'cmp'
  | 'ds'
  | 'call'
  | 'evt'
  | 'tch'
  | 'aud'
  | 'cns'
  | 'job'
  | 'att'
  | 'sim'
  | 'whk'
  | 'msg'
  | 'wdl'
  | 'wat'
  | 'cdst'
  | 'cup'
  | 'cua'
  | 'usr'
  | 'buy'
  | 'ofr';

/**
 * Opaque prefixed ids. The leading milliseconds keep B-tree inserts close
 * together; the 80 random bits keep ids unguessable.
 */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  const time = Math.floor(nowMs).toString(16).padStart(12, '0');
  return `${prefix}_${time}${randomHex()}`;
}

// Random bytes drawn from the CSPRNG 4 KiB at a time instead of 10 per id: one
// call into OpenSSL per ~400 ids (each byte is used once).
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomHex(): string {
  if (used + 10 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 10;
  return pool.toString('hex', used - 10, used);
}
