import { xmlEscape } from '../dispatch/payload.js';
import type { Carrier, DispatchPayload, SendOptions, SendResult } from './types.js';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** https://api.twilio.com in production; tests point it at a local fake. */
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

type Request = { resource: 'Messages' | 'Calls'; form: Record<string, string> };

/** Connection errors that prove the request never left: safe to send again. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const permanent = (error: string): SendResult => ({ outcome: 'failed', retryable: false, error });

function twimlFor(p: DispatchPayload, prefer: 'recording' | 'words'): string | null {
  const play = p.recording_url ? `<Play>${xmlEscape(p.recording_url)}</Play>` : null;
  const say = p.text ? `<Say>${xmlEscape(p.text)}</Say>` : null;
  const inner = prefer === 'recording' ? (play ?? say) : (say ?? play);
  return inner ? `<Response>${inner}</Response>` : null;
}

/** The REST request for a touch, or why the campaign config cannot produce one. */
export function twilioRequest(p: DispatchPayload): Request | { error: string } {
  if (!p.from) return { error: 'the campaign config has no caller_id' };
  const base = { To: p.to, From: p.from };
  if (p.channel === 'sms') {
    if (!p.text) return { error: `no text for an sms (template ${p.template_id ?? 'default'})` };
    return { resource: 'Messages', form: { ...base, Body: p.text } };
  }
  if (p.channel === 'call') {
    const twiml = p.twiml ?? twimlFor(p, 'words');
    if (!twiml) return { error: 'no twiml, text or recording_url for a call' };
    return { resource: 'Calls', form: { ...base, Twiml: twiml } };
  }
  // A voicemail drop: wait for the greeting to end, then play the recording into the mailbox.
  const twiml = twimlFor(p, 'recording') ?? p.twiml;
  if (!twiml) return { error: 'no recording_url for a voicemail drop' };
  return {
    resource: 'Calls',
    form: { ...base, Twiml: twiml, MachineDetection: 'DetectMessageEnd' },
  };
}

function errorCode(err: unknown): string | undefined {
  type Coded = { code?: string; errors?: { code?: string }[] };
  const cause = (err as { cause?: Coded })?.cause;
  // Happy-eyeballs connects fail with an AggregateError that holds the per-address errors.
  return cause?.code ?? cause?.errors?.[0]?.code ?? (err as Coded)?.code;
}

/**
 * Twilio's Programmable Voice and Messaging REST API. Twilio documents no idempotency key for
 * creating calls or messages, so `idempotent` is false: the worker never repeats a hand-over
 * whose outcome is unknown (docs/outbound.md, "Exactly once").
 */
export class TwilioCarrier implements Carrier {
  readonly name = 'twilio';
  readonly idempotent = false;
  private readonly fetch: typeof fetch;

  constructor(private readonly o: TwilioOptions) {
    this.fetch = o.fetch ?? fetch;
  }

  async send(p: DispatchPayload, _o: SendOptions): Promise<SendResult> {
    const req = twilioRequest(p);
    if ('error' in req) return permanent(req.error);
    const url = `${this.o.baseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(
      this.o.accountSid,
    )}/${req.resource}.json`;
    const auth = Buffer.from(`${this.o.accountSid}:${this.o.authToken}`).toString('base64');
    let res: Response;
    try {
      res = await this.fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${auth}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams(req.form).toString(),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 10_000),
      });
    } catch (err) {
      const code = errorCode(err);
      const error = `twilio request failed: ${code ?? (err as Error)?.name ?? 'error'}`;
      return code && NOT_SENT.has(code)
        ? { outcome: 'failed', retryable: true, error }
        : { outcome: 'unknown', error };
    }
    const text = await res.text().catch(() => '');
    let json: { sid?: string; code?: number; message?: string } = {};
    try {
      json = JSON.parse(text);
    } catch {}
    if (res.ok && typeof json.sid === 'string') return { outcome: 'accepted', carrierId: json.sid };
    const error = `twilio ${res.status}${json.code ? ` ${json.code}` : ''}: ${json.message ?? text.slice(0, 200)}`;
    if (res.ok) return { outcome: 'unknown', error: `${error} (no sid in the answer)` };
    // A gateway timeout may hide a created resource; the other 5xx and 429 did not create one.
    if (res.status === 504) return { outcome: 'unknown', error };
    if (res.status === 429 || res.status >= 500) {
      return { outcome: 'failed', retryable: true, error };
    }
    return permanent(error);
  }
}
