import type { Logger } from 'pino';
import type { Clock, Metrics } from '../../deps.js';
import { exponentialBackoffMs, withJitter } from '../backoff.js';
import type { UnitOfWork } from '../ports.js';
import type { AdPlatforms, ItemResult, SendItem } from './platform.js';
import { notRetractableReason, type Retractability, retractability } from './retractability.js';
import { type Scrubber, scrubberFor } from './scrub.js';
import type { SecretBox } from './secrets.js';
import { MAYBE_APPLIED_REASONS, REASONS } from './vocabulary.js';
import type { ClaimedUpload, UploadClaims, UploadNext, UploadRecord } from './worker-ports.js';

/**
 * The upload worker as three small steps a shared leased loop can call: `claim` leases due
 * rows, `run` sends them grouped per destination and kind in batches the platform allows,
 * `record` stores every row's attempt. `uploadRound` is the three in order.
 */
export interface UploadOptions {
  leaseMs: number;
  /** Rows claimed per round. */
  claimLimit: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Sends of a row before it fails gave_up (checks of an accepted request do not count). */
  maxAttempts: number;
  /** First check of a request the platform accepted for later processing (Data Manager). */
  confirmAfterMs: number;
  /** How long after accepting a request the platform may still report it unprocessed. */
  confirmWithinMs: number;
  workerId: string;
}

/**
 * Google: "Periodically send the RetrieveRequestStatusRequest using an exponential backoff
 * algorithm until the request_status reaches SUCCESS, FAILURE, or PARTIAL_SUCCESS [...]. This
 * may take up to 24 hours, although the Data Manager API may finish processing some requests
 * in as little as 30 minutes." (Data Manager API guide "Diagnostics",
 * https://developers.google.com/data-manager/api/devguides/diagnostics). So a request is
 * checked for a time, not a number of times: a week, seven times Google's stated longest, so
 * that a slow day at Google or a worker down for days still ends in Google's own answer (a
 * check is always made before giving up). The backoff is capped at an hour, so a request
 * still processing costs one check an hour (Google's "Limits and quotas": 100,000 requests a
 * day per project).
 */
export const CONFIRM_WITHIN_MS = 7 * 86_400_000;

export const DEFAULT_UPLOAD_OPTIONS: Omit<UploadOptions, 'workerId'> = {
  leaseMs: 120_000,
  claimLimit: 2_000,
  retryBaseMs: 30_000,
  retryMaxMs: 3_600_000,
  maxAttempts: 20,
  confirmAfterMs: 60_000,
  confirmWithinMs: CONFIRM_WITHIN_MS,
};

export interface UploadDeps {
  repos: Pick<UnitOfWork, 'db'> & { uploads: UploadClaims };
  platforms: AdPlatforms;
  box: SecretBox | null;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics | undefined;
}

/** base·2^(attempt−1) up to the cap, plus up to 20 % jitter; a platform's Retry-After wins. */
export function uploadRetryDelayMs(
  attempt: number,
  o: Pick<UploadOptions, 'retryBaseMs' | 'retryMaxMs'>,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const base = exponentialBackoffMs(attempt, o.retryBaseMs, o.retryMaxMs);
  return Math.min(o.retryMaxMs, withJitter(base, random));
}

/** What `nextOf` reads of the row: its attempts and the request it awaits, if any. */
export type Attempted = Pick<ClaimedUpload, 'attempt' | 'checks' | 'requestId' | 'awaitingSinceMs'>;

const days = (ms: number) => `${Math.round(ms / 86_400_000)} days`;

/**
 * Where a row goes after this result. A send that can be retried is retried up to maxAttempts
 * sends; a check that learnt nothing yet (Google still PROCESSING, or the check itself failed)
 * checks the same request again until confirmWithinMs after Google accepted it, whatever the
 * number of checks; a check that orders a resend forgets the request.
 */
export function nextOf(
  result: ItemResult,
  u: Attempted,
  nowMs: number,
  o: Pick<
    UploadOptions,
    'retryBaseMs' | 'retryMaxMs' | 'maxAttempts' | 'confirmAfterMs' | 'confirmWithinMs'
  >,
): UploadNext {
  if (result.state === 'sent')
    return result.note ? { state: 'sent', note: result.note } : { state: 'sent' };
  if (result.state === 'accepted') {
    return {
      state: 'pending',
      retryAtMs: nowMs + o.confirmAfterMs,
      code: 'awaiting_confirmation',
      reason: `${REASONS.awaiting_confirmation.words}: request ${result.requestId}`,
      requestId: result.requestId,
      awaitingSinceMs: nowMs,
    };
  }
  const reason = `${REASONS[result.code].words}: ${result.detail}`;
  if (result.state === 'failed') return { state: 'failed', code: result.code, reason };
  if (u.requestId !== null && !result.resend) {
    const since = u.awaitingSinceMs ?? nowMs;
    if (nowMs - since >= o.confirmWithinMs) {
      return {
        state: 'failed',
        code: 'gave_up',
        reason: `${reason} (gave up: no report of request ${u.requestId} ${days(o.confirmWithinMs)} after Google accepted it)`,
      };
    }
    return {
      state: 'pending',
      retryAtMs: nowMs + uploadRetryDelayMs(u.checks, o, result.retryAfterMs),
      code: result.code,
      reason,
      requestId: u.requestId,
      awaitingSinceMs: since,
    };
  }
  // Sends only: waiting for Google's report spends none of the budget.
  const sends = u.attempt - u.checks;
  if (sends >= o.maxAttempts) {
    return {
      state: 'failed',
      code: 'gave_up',
      reason: `${reason} (gave up after ${u.attempt} attempts${u.checks > 0 ? `, ${sends} of them sends` : ''})`,
    };
  }
  return {
    state: 'pending',
    retryAtMs: nowMs + uploadRetryDelayMs(Math.max(1, sends), o, result.retryAfterMs),
    code: result.code,
    reason,
    ...(result.resend === 'alone' ? { solo: true } : {}),
  };
}

export function claim(deps: UploadDeps, o: UploadOptions): Promise<ClaimedUpload[]> {
  return deps.repos.uploads.claimUploads(deps.repos.db, {
    nowMs: deps.clock.now(),
    leaseMs: o.leaseMs,
    limit: o.claimLimit,
    worker: o.workerId,
  });
}

/** The result with the platform's words scrubbed of secrets and credential-shaped text. */
function scrubbed(r: ItemResult, scrub: Scrubber): ItemResult {
  if (r.state === 'sent') return r.note ? { ...r, note: scrub(r.note) } : r;
  if (r.state === 'accepted') return r;
  return { ...r, detail: scrub(r.detail) };
}

/**
 * Keeps a refresh token the platform rotated: the destination's secrets sealed again with it,
 * written only if nobody changed them meanwhile (a PATCH wins; the token cache still holds
 * the new token for this process).
 */
async function keepRefreshToken(
  deps: UploadDeps,
  first: ClaimedUpload,
  secrets: Record<string, string>,
  refreshToken: string,
) {
  if (!deps.box || secrets.refresh_token === refreshToken) return;
  const sealed = deps.box.seal({ ...secrets, refresh_token: refreshToken });
  const kept = await deps.repos.uploads.replaceSealedSecrets(
    deps.repos.db,
    first.destinationId,
    first.sealedSecrets,
    sealed,
  );
  deps.logger.info(
    { destination: first.destinationId, kept },
    kept ? 'rotated refresh token stored' : 'rotated refresh token not stored: secrets changed',
  );
}

/**
 * One request for a chunk of one destination's rows: the platform's answer for each row, or a
 * retry for every row when the request failed here. Never throws.
 */
async function sendChunk(
  deps: UploadDeps,
  first: ClaimedUpload,
  chunk: ClaimedUpload[],
): Promise<{ statusCode: number | null; results: ItemResult[]; scrub: Scrubber }> {
  const client = deps.platforms[first.platform];
  const requestId = first.requestId;
  let statusCode: number | null = null;
  let results: ItemResult[];
  let scrub: Scrubber = scrubberFor([]);
  try {
    if (!deps.box) throw new Error('SECRETS_KEY is not set');
    const secrets = deps.box.open(first.sealedSecrets);
    scrub = scrubberFor(secrets);
    const items: SendItem[] = chunk.map((u) => ({
      uploadId: u.uploadId,
      kind: u.kind,
      dedupeKey: u.dedupeKey,
      facts: u.facts,
    }));
    const target = {
      destinationId: first.destinationId,
      platform: first.platform,
      settings: first.settings,
      secrets,
    };
    // A request the platform accepted earlier is checked, not sent again.
    const answer =
      requestId !== null && client.check
        ? await client.check(target, requestId, items)
        : await client.send(target, items, { validateOnly: false });
    statusCode = answer.statusCode;
    results = answer.results;
    if (answer.refreshToken) {
      await keepRefreshToken(deps, first, secrets, answer.refreshToken).catch((err) =>
        deps.logger.error(
          { destination: first.destinationId, error: (err as Error).name },
          'rotated refresh token could not be stored',
        ),
      );
    }
  } catch (err) {
    // A bug or a local failure: logged by name only (messages may quote a request).
    deps.logger.error(
      { destination: first.destinationId, error: (err as Error).name },
      'conversion upload failed locally',
    );
    const detail = (err as Error).message.slice(0, 200);
    results = chunk.map(() => ({ state: 'retry', code: 'network_error', detail }));
  }
  return { statusCode, results, scrub };
}

/**
 * A retraction its destination cannot send (written before the destination lost its developer
 * token, or before retractability was the destination's): failed here, nothing sent; its
 * conversion then reads not_retractable (conversion-uploads.ts, applyKnockOn).
 */
function unsendable(
  can: Retractability,
  chunk: ClaimedUpload[],
): { statusCode: null; results: ItemResult[]; scrub: Scrubber } | null {
  if (can.retractable || chunk[0]?.kind !== 'retraction') return null;
  return {
    statusCode: null,
    results: chunk.map(() => ({ state: 'failed', code: 'not_retractable', detail: can.why })),
    scrub: scrubberFor([]),
  };
}

/** Sends the claimed rows, one request per (destination, kind) chunk; never throws. */
export async function run(
  deps: UploadDeps,
  claimed: ClaimedUpload[],
  o: UploadOptions,
): Promise<UploadRecord[]> {
  // Per destination and kind; rows awaiting a check per request; rows to send alone apart.
  const groups = new Map<string, ClaimedUpload[]>();
  for (const u of claimed) {
    const key = `${u.destinationId}:${u.kind}:${u.requestId ?? ''}:${u.solo ? u.uploadId : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), u]);
  }
  const records: UploadRecord[] = [];
  await Promise.all(
    [...groups.values()].map(async (rows) => {
      const first = rows[0]!;
      const client = deps.platforms[first.platform];
      const can = retractability({
        platform: first.platform,
        settings: first.settings,
        secretNames: first.secretNames,
      });
      const notRetractable = can.retractable
        ? null
        : notRetractableReason(can.why, 'the buyer rejected the call while it was being uploaded');
      // A check covers its whole request, however many rows it carried.
      const size = first.requestId !== null ? rows.length : client.maxBatch;
      for (let i = 0; i < rows.length; i += size) {
        const chunk = rows.slice(i, i + size);
        const startedAt = new Date(deps.clock.now());
        const { statusCode, results, scrub } =
          unsendable(can, chunk) ?? (await sendChunk(deps, first, chunk));
        const nowMs = deps.clock.now();
        chunk.forEach((u, j) => {
          const result = results[j] ?? {
            state: 'retry',
            code: 'server_error',
            detail: 'the platform answered fewer rows than it was sent',
          };
          const clean = scrubbed(result, scrub);
          const next = nextOf(clean, u, nowMs, o);
          records.push({
            upload: u,
            result: clean,
            next,
            statusCode,
            startedAt,
            maybeApplied:
              clean.state === 'accepted' ||
              (clean.state !== 'sent' && MAYBE_APPLIED_REASONS.has(clean.code)),
            // The platform's report (a check answered 200) says it processed and refused it.
            notHeld: u.requestId !== null && statusCode === 200 && clean.state === 'failed',
            notRetractable,
          });
        });
      }
    }),
  );
  return records;
}

export async function record(deps: UploadDeps, records: UploadRecord[], o: UploadOptions) {
  if (records.length === 0) return 0;
  const kept = await deps.repos.uploads.recordUploads(
    deps.repos.db,
    o.workerId,
    records,
    deps.clock.now(),
  );
  for (const r of records) {
    const outcome =
      r.next.state === 'sent' ? 'sent' : r.next.state === 'pending' ? 'retry' : 'failed';
    deps.metrics?.conversionUploads.inc({
      destination: r.upload.destinationId,
      platform: r.upload.platform,
      outcome,
      reason: r.next.state === 'sent' ? '' : r.next.code,
    });
  }
  if (kept < records.length) {
    deps.logger.warn({ lost: records.length - kept }, 'upload leases lost before recording');
  }
  return kept;
}

/** One round: claim, send, record. Resolves with how many rows were claimed. */
export async function uploadRound(deps: UploadDeps, o: UploadOptions): Promise<number> {
  const claimed = await claim(deps, o);
  if (claimed.length === 0) return 0;
  await record(deps, await run(deps, claimed, o), o);
  return claimed.length;
}
