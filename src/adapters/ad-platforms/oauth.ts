import { createHash } from 'node:crypto';
import type { BatchAnswer } from '../../domain/conversions/platform.js';
import { failureResult, request, times } from './http.js';

/** The token endpoint refused the refresh token or client: not worth retrying. */
export class OAuthRefused extends Error {
  override name = 'OAuthRefused';
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
  }
}

/** The token endpoint failed in a way that may pass (5xx, 429, no answer). */
export class OAuthUnavailable extends Error {
  override name = 'OAuthUnavailable';
}

interface Cached {
  token: string;
  expiresAtMs: number;
}

/**
 * Access tokens from OAuth 2.0 refresh tokens (RFC 6749 §6), kept until a minute before they
 * expire. One refresh in flight per credential, however many batches ask at once. A token
 * endpoint may answer a new refresh token (RFC 6749 §6: Microsoft does, and retires the old
 * one): the newest is remembered here, used for every later refresh of that credential, and
 * offered by `latestRefreshToken` so the caller can store it.
 */
export class TokenCache {
  private readonly cache = new Map<string, Cached>();
  private readonly inFlight = new Map<string, Promise<string>>();
  private readonly rotated = new Map<string, string>();

  constructor(private readonly timeoutMs: number) {}

  private static keyOf(url: string, c: OAuthClient) {
    return createHash('sha256').update(`${url}\n${c.client_id}\n${c.refresh_token}`).digest('hex');
  }

  /** The credential with the newest refresh token this process was given for it. */
  private current(url: string, c: OAuthClient): OAuthClient {
    let out = c;
    for (let hops = 0; hops < 100; hops++) {
      const next = this.rotated.get(TokenCache.keyOf(url, out));
      if (next === undefined || next === out.refresh_token) break;
      out = { ...out, refresh_token: next };
    }
    return out;
  }

  /** A refresh token newer than the one in `c`, when the token endpoint issued one. */
  latestRefreshToken(url: string, c: OAuthClient): string | undefined {
    const now = this.current(url, c).refresh_token;
    return now === c.refresh_token ? undefined : now;
  }

  forget(url: string, c: OAuthClient): void {
    this.cache.delete(TokenCache.keyOf(url, this.current(url, c)));
  }

  async get(url: string, given: OAuthClient, scope?: string): Promise<string> {
    const c = this.current(url, given);
    const key = TokenCache.keyOf(url, c);
    const hit = this.cache.get(key);
    if (hit && hit.expiresAtMs > Date.now()) return hit.token;
    const running = this.inFlight.get(key);
    if (running) return running;
    const p = this.refresh(url, c, scope)
      .then((t) => {
        const entry = { token: t.token, expiresAtMs: Date.now() + (t.expiresIn - 60) * 1000 };
        this.cache.set(key, entry);
        if (t.refreshToken && t.refreshToken !== c.refresh_token) {
          this.rotated.set(key, t.refreshToken);
          this.cache.set(TokenCache.keyOf(url, { ...c, refresh_token: t.refreshToken }), entry);
        }
        return t.token;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  private async refresh(url: string, c: OAuthClient, scope?: string) {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: c.client_id,
      client_secret: c.client_secret,
      refresh_token: c.refresh_token,
      ...(scope ? { scope } : {}),
    });
    let a: Awaited<ReturnType<typeof request>>;
    try {
      a = await request(
        url,
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
        this.timeoutMs,
      );
    } catch (err) {
      throw new OAuthUnavailable(`token endpoint: ${(err as Error).message}`);
    }
    const b = (a.body ?? {}) as {
      access_token?: string;
      expires_in?: number;
      refresh_token?: string;
      error?: string;
    };
    if (a.status === 200 && typeof b.access_token === 'string') {
      return {
        token: b.access_token,
        expiresIn: Number(b.expires_in ?? 3600),
        ...(typeof b.refresh_token === 'string' && b.refresh_token
          ? { refreshToken: b.refresh_token }
          : {}),
      };
    }
    if (a.status === 429 || a.status >= 500) {
      throw new OAuthUnavailable(`token endpoint answered ${a.status}`);
    }
    // Only the OAuth error code: error_description may quote what was sent.
    const code = typeof b.error === 'string' && /^[a-z_]{1,40}$/.test(b.error) ? b.error : '';
    throw new OAuthRefused(a.status, `token endpoint answered ${a.status} ${code}`.trim());
  }
}

/** A client of a platform that takes OAuth access tokens (Google Ads, Microsoft Advertising). */
export interface OAuthClientOptions {
  apiBase: string;
  tokenUrl: string;
  tokens: TokenCache;
  timeoutMs: number;
}

export interface OAuthClient {
  client_id: string;
  client_secret: string;
  refresh_token: string;
}

export const oauthClient = (secrets: Record<string, string>): OAuthClient => ({
  client_id: secrets.client_id ?? '',
  client_secret: secrets.client_secret ?? '',
  refresh_token: secrets.refresh_token ?? '',
});

/**
 * Every row's result when the request itself failed: no answer is retried, refused OAuth
 * credentials are final (retrying cannot fix them), a token endpoint that failed is retried.
 */
export function failedRequest(err: unknown, n: number): BatchAnswer {
  if (err instanceof OAuthRefused) {
    return {
      statusCode: err.status,
      results: times(n, { state: 'failed', code: 'auth_failed', detail: err.message }),
    };
  }
  if (err instanceof OAuthUnavailable) {
    return {
      statusCode: null,
      results: times(n, { state: 'retry', code: 'token_unavailable', detail: err.message }),
    };
  }
  return { statusCode: null, results: times(n, failureResult(err)) };
}
