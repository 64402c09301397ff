import { randomBytes } from 'node:crypto';

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
  | 'wat';

/**
 * Opaque prefixed ids. The leading milliseconds keep B-tree inserts close
 * together; the 80 random bits keep ids unguessable.
 */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  const time = Math.floor(nowMs).toString(16).padStart(12, '0');
  return `${prefix}_${time}${randomBytes(10).toString('hex')}`;
}
