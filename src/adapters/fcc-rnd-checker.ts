import type { RndResult } from '../domain/compliance/index.js';
import { type RndChecker, RndUnavailable } from '../domain/rnd/checker.js';

/**
 * The FCC RND query API: POST {baseUrl}/query with `{"tn": "<10 digits>", "date": "YYYY-MM-DD"}`
 * and `Authorization: Bearer <token>`; the answer's `result` is `yes` (permanently disconnected
 * since that date, so reassigned), `no` or `no_data`. Only NANP (+1) numbers are in the database;
 * anything else is `no_data` without a request.
 */
export class FccRndChecker implements RndChecker {
  readonly name = 'fcc';
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly fetchFn: typeof fetch = fetch,
    private readonly timeoutMs = 10_000,
  ) {}

  async query(e164: string, consentDate: string): Promise<RndResult> {
    if (!/^\+1\d{10}$/.test(e164)) return 'no_data';
    let res: Response;
    try {
      res = await this.fetchFn(`${this.baseUrl.replace(/\/+$/, '')}/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tn: e164.slice(2), date: consentDate }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new RndUnavailable(`RND query failed: ${(err as Error).message}`);
    }
    if (!res.ok) throw new RndUnavailable(`RND query answered ${res.status}`);
    const body = (await res.json().catch(() => null)) as { result?: unknown } | null;
    const answer = String(body?.result ?? '').toLowerCase();
    if (answer === 'yes') return 'reassigned';
    if (answer === 'no') return 'not_reassigned';
    if (answer === 'no_data' || answer === 'no data') return 'no_data';
    throw new RndUnavailable(`RND query answered an unknown result: ${answer.slice(0, 40)}`);
  }
}
