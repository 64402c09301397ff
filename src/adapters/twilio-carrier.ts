import type {
  Carrier,
  DispatchPayload,
  SendOptions,
  SendResult,
} from '../domain/dispatch/carriers/types.js';
import { xmlEscape } from '../domain/dispatch/payload.js';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** https://api.twilio.com in production; tests point it at a local fake. */
  baseUrl: string;
  /**
   * The service's public origin (PUBLIC_BASE_URL): the keypress opt-out posts to
   * `<origin>/carrier/twilio/optout?touch=<touch id>`. Without it calls are refused.
   */
  publicBaseUrl?: string | undefined;
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

/** Said inside the <Gather> when the campaign config has no `opt_out_prompt`. */
export const DEFAULT_OPT_OUT_PROMPT = 'To stop receiving calls from us, press 9.';
/** How long the last <Gather> waits for the key after the message ends. */
const GATHER_TIMEOUT_S = 5;

/** Verbs (and the SSML inside <Say>) a <Gather> may hold. */
const GATHERABLE = new Set([
  'Say',
  'Play',
  'Pause',
  'break',
  'emphasis',
  'lang',
  'p',
  'phoneme',
  'prosody',
  's',
  'say-as',
  'sub',
  'w',
  'amazon:effect',
  'amazon:domain',
]);

function gather(actionUrl: string, inner: string): string {
  return `<Gather numDigits="1" method="POST" timeout="${GATHER_TIMEOUT_S}" action="${xmlEscape(actionUrl)}">${inner}</Gather>`;
}

/**
 * The message with the keypress opt-out 64.1200(b)(3) requires of prerecorded calls: the words
 * or recording play inside a <Gather>, so a key pressed at any moment reaches the opt-out URL.
 * Template TwiML made only of Say/Play/Pause is wrapped the same way; other TwiML (a <Dial>,
 * say) cannot sit inside a <Gather>, so the opt-out offer plays first and the TwiML follows.
 */
export function withKeypressOptOut(content: string, prompt: string, actionUrl: string): string {
  const say = `<Say>${xmlEscape(prompt)}</Say>`;
  const m = /^\s*(?:<\?xml[^>]*\?>\s*)?<Response>([\s\S]*)<\/Response>\s*$/.exec(content);
  const inner = m ? (m[1] ?? '') : content;
  const tags = [...inner.matchAll(/<\/?([A-Za-z][\w:-]*)/g)].map((t) => t[1] ?? '');
  if (tags.every((t) => GATHERABLE.has(t))) {
    return `<Response>${gather(actionUrl, `${inner}${say}`)}</Response>`;
  }
  return `<Response>${gather(actionUrl, say)}${inner}</Response>`;
}

function spoken(p: DispatchPayload, prefer: 'recording' | 'words'): string | null {
  const play = p.recording_url ? `<Play>${xmlEscape(p.recording_url)}</Play>` : null;
  const say = p.text ? `<Say>${xmlEscape(p.text)}</Say>` : null;
  const inner = prefer === 'recording' ? (play ?? say) : (say ?? play);
  return inner ? `<Response>${inner}</Response>` : null;
}

/**
 * The REST request for a touch, or why the campaign config cannot produce one. Calls and
 * voicemail drops need `optOutUrl`: without the keypress opt-out they may not be placed.
 */
export function twilioRequest(
  payload: DispatchPayload,
  optOutUrl?: (touchId: string) => string,
): Request | { error: string } {
  if (!payload.from) return { error: 'the campaign config has no caller_id' };
  const base = { To: payload.to, From: payload.from };
  if (payload.channel === 'sms') {
    if (!payload.text)
      return { error: `no text for an sms (template ${payload.template_id ?? 'default'})` };
    return { resource: 'Messages', form: { ...base, Body: payload.text } };
  }
  const call = payload.channel === 'call';
  // A voicemail drop plays the recording; a call says its words, or runs its template TwiML.
  const twiml = call
    ? (payload.twiml ?? spoken(payload, 'words'))
    : (spoken(payload, 'recording') ?? payload.twiml);
  if (!twiml) {
    return {
      error: call
        ? 'no twiml, text or recording_url for a call'
        : 'no recording_url for a voicemail drop',
    };
  }
  if (!optOutUrl) {
    return { error: 'PUBLIC_BASE_URL is not set: a call needs the keypress opt-out address' };
  }
  const Twiml = withKeypressOptOut(
    twiml,
    payload.opt_out_prompt ?? DEFAULT_OPT_OUT_PROMPT,
    optOutUrl(payload.touch_id),
  );
  // A voicemail drop waits for the greeting to end, then plays into the mailbox.
  return {
    resource: 'Calls',
    form: call ? { ...base, Twiml } : { ...base, Twiml, MachineDetection: 'DetectMessageEnd' },
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
    const origin = this.o.publicBaseUrl?.replace(/\/+$/, '');
    const req = twilioRequest(
      p,
      origin
        ? (touchId) => `${origin}/carrier/twilio/optout?touch=${encodeURIComponent(touchId)}`
        : undefined,
    );
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
