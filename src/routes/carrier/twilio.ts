import type { FastifyInstance, FastifyRequest } from 'fastify';
import twilio from 'twilio';
import {
  dialBuyerTwiml,
  emptyMessagingTwiml,
  forwardTwiml,
  goodbyeTwiml,
  hangupTwiml,
  NO_ONE_AVAILABLE,
  NOT_IN_SERVICE,
  OPTED_OUT,
} from '../../adapters/twiml.js';
import type { AppDeps } from '../../deps.js';
import { acceptDialResult, recordCallStatus } from '../../domain/carrier-inbound/inbound.js';
import { acceptInboundMessage, acceptKeypress } from '../../domain/carrier-inbound/opt-out.js';
import type { RouteAnswer } from '../../domain/routing/route-call.js';
import { errors } from '../../errors.js';
import { contentTypeOf } from '../../http/validate.js';

export const TWILIO_VOICE_PATH = '/carrier/twilio/voice';
export const TWILIO_STATUS_PATH = '/carrier/twilio/status';
export const TWILIO_MESSAGE_PATH = '/carrier/twilio/message';
/** The action of a routed call's <Dial>; `?offer=<offer id>` says which offer it rang. */
export const TWILIO_DIAL_PATH = '/carrier/twilio/dial';
/** The action of the keypress opt-out's <Gather>; `?touch=<touch id>` says which call. */
export const TWILIO_OPTOUT_PATH = '/carrier/twilio/optout';

type Params = Record<string, string | string[]>;

/** Twilio posts application/x-www-form-urlencoded; anything else carries no parameters. */
export function formParams(request: FastifyRequest): Params {
  const type = contentTypeOf(request) ?? '';
  const raw = request.body;
  if (!/^application\/x-www-form-urlencoded\b/i.test(type) || !Buffer.isBuffer(raw)) return {};
  const params: Params = {};
  for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) {
    const prev = params[k];
    params[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return params;
}

const one = (params: Params, name: string): string | undefined => {
  const v = params[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

type SignedForm<K extends string> = Record<K, string> & Record<string, string | undefined>;

/** What every Twilio webhook shares: the signature check, the domain context, the routing TwiML. */
interface TwilioHooks {
  deps: AppDeps;
  /** The signed form's single values by name; 422 unless every one of `needed` is there. */
  signedForm: <K extends string>(request: FastifyRequest, needed: readonly K[]) => SignedForm<K>;
  ctx: (request: FastifyRequest) => {
    carrier: 'twilio';
    requestId: string;
    now: Date;
    random: () => number;
  };
  /**
   * The TwiML of a routing decision (the Dial's action is absolute, as Twilio signs it), counted
   * in routing_offers_total or routing_fallbacks_total when this request made it.
   */
  routedTwiml: (answer: RouteAnswer) => string;
}

/**
 * Twilio's webhooks, on the public listener but outside the tenant API: the
 * X-Twilio-Signature (HMAC of the full URL and the form parameters with the
 * account's auth token) is the only credential, so nothing is read or stored
 * before it checks out.
 */
export function twilioRoutes(app: FastifyInstance, deps: AppDeps): void {
  const hooks = twilioHooks(deps);
  voiceWebhook(app, hooks);
  dialWebhook(app, hooks);
  statusWebhook(app, hooks);
  messageWebhook(app, hooks);
  keypressOptOutWebhook(app, hooks);
}

function twilioHooks(deps: AppDeps): TwilioHooks {
  const settings = deps.twilio;
  const missing = [
    ...(settings?.authToken ? [] : ['TWILIO_AUTH_TOKEN']),
    ...(settings?.publicBaseUrl ? [] : ['PUBLIC_BASE_URL']),
  ];
  if (missing.length > 0) {
    deps.logger.info({ missing }, 'Twilio webhooks answer 503 until these are set');
  }

  const verified = (request: FastifyRequest): Params => {
    if (!settings?.authToken || !settings.publicBaseUrl) {
      request.log.warn({ missing }, 'Twilio webhook refused: the carrier is not configured');
      throw errors.carrierNotConfigured();
    }
    const params = formParams(request);
    const signature = request.headers['x-twilio-signature'];
    const url = `${settings.publicBaseUrl}${request.url}`;
    if (
      typeof signature !== 'string' ||
      !twilio.validateRequest(settings.authToken, signature, url, params)
    ) {
      request.log.warn(
        { url, signed: typeof signature === 'string' },
        'Twilio webhook refused: signature missing or invalid (check PUBLIC_BASE_URL and the auth token)',
      );
      throw errors.invalidSignature();
    }
    return params;
  };
  const signedForm = <K extends string>(request: FastifyRequest, needed: readonly K[]) => {
    const params = verified(request);
    const absent = needed.filter((n) => one(params, n) === undefined);
    if (absent.length > 0) throw errors.invalidCarrierRequest(absent);
    const form: Record<string, string | undefined> = {};
    for (const name of Object.keys(params)) form[name] = one(params, name);
    return form as SignedForm<K>;
  };
  const ctx = (request: FastifyRequest) => ({
    carrier: 'twilio' as const,
    requestId: request.id,
    now: new Date(deps.clock.now()),
    random: deps.random ?? Math.random,
  });
  const routedTwiml = (answer: RouteAnswer): string => {
    switch (answer.kind) {
      case 'dial':
        if (answer.fresh) deps.metrics.routingOffers.inc();
        return dialBuyerTwiml(
          answer.forwardTo,
          `${settings?.publicBaseUrl ?? ''}${TWILIO_DIAL_PATH}?offer=${answer.offerId}`,
          answer.ringTimeoutSeconds,
        );
      case 'fallback':
        if (answer.reason) deps.metrics.routingFallbacks.inc({ reason: answer.reason });
        return answer.forwardTo ? forwardTwiml(answer.forwardTo) : goodbyeTwiml(NO_ONE_AVAILABLE);
      case 'hangup':
        return hangupTwiml();
    }
  };
  return { deps, signedForm, ctx, routedTwiml };
}

/** The inbound call: record it and answer the TwiML that routes it. */
function voiceWebhook(app: FastifyInstance, hooks: TwilioHooks): void {
  const { deps } = hooks;
  app.post(TWILIO_VOICE_PATH, { schema: { hide: true } }, async (request, reply) => {
    const f = hooks.signedForm(request, ['CallSid', 'To', 'From']);
    const answer = await deps.ringing.ring({
      ctx: hooks.ctx(request),
      call: { callSid: f.CallSid, to: f.To, from: f.From, status: f.CallStatus ?? null },
    });
    if (answer.kind === 'unknown_number') {
      request.log.warn({ to: f.To }, 'Twilio call to a number no campaign answers for');
    }
    const xml =
      answer.kind === 'routed'
        ? hooks.routedTwiml(answer.answer)
        : answer.kind === 'forward'
          ? forwardTwiml(answer.forwardTo)
          : goodbyeTwiml(answer.kind === 'unknown_number' ? NOT_IN_SERVICE : NO_ONE_AVAILABLE);
    return reply.type('text/xml').send(xml);
  });
}

/** Twilio's <Dial> action: DialCallStatus and DialCallDuration of the buyer's leg. */
function dialWebhook(app: FastifyInstance, hooks: TwilioHooks): void {
  const { deps } = hooks;
  app.post(TWILIO_DIAL_PATH, { schema: { hide: true } }, async (request, reply) => {
    const f = hooks.signedForm(request, ['CallSid', 'DialCallStatus']);
    const offerId = (request.query as Record<string, unknown>).offer;
    if (typeof offerId !== 'string' || offerId === '')
      throw errors.invalidCarrierRequest(['offer']);
    const duration = Number(f.DialCallDuration);
    const outcome = await acceptDialResult(deps.repos, hooks.ctx(request), {
      callSid: f.CallSid,
      offerId,
      dialCallStatus: f.DialCallStatus,
      dialCallDuration: Number.isInteger(duration) && duration >= 0 ? duration : null,
      callStatus: f.CallStatus ?? null,
    });
    if (outcome.kind === 'unknown_call') {
      request.log.warn({ call_sid: f.CallSid }, 'Twilio Dial result for a call we did not store');
      return reply.type('text/xml').send(hangupTwiml());
    }
    if (outcome.ended.kind === 'unknown_offer') {
      request.log.warn({ offer: offerId }, 'Twilio Dial result for an offer the call never had');
    }
    return reply.type('text/xml').send(hooks.routedTwiml(outcome.answer));
  });
}

/** A call's status callback: its status and, once over, its duration. */
function statusWebhook(app: FastifyInstance, hooks: TwilioHooks): void {
  const { deps } = hooks;
  app.post(TWILIO_STATUS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const f = hooks.signedForm(request, ['CallSid', 'CallStatus']);
    const duration = Number(f.CallDuration);
    const outcome = await recordCallStatus(deps.repos, hooks.ctx(request), {
      callSid: f.CallSid,
      status: f.CallStatus,
      durationSeconds: Number.isInteger(duration) && duration >= 0 ? duration : null,
    });
    if (outcome === 'unknown_call') {
      request.log.info({ call_sid: f.CallSid }, 'Twilio status for a call we did not store');
    }
    return reply.code(204).send();
  });
}

/** An inbound SMS: a reply that changes consent is recorded in the consent history. */
function messageWebhook(app: FastifyInstance, hooks: TwilioHooks): void {
  const { deps } = hooks;
  app.post(TWILIO_MESSAGE_PATH, { schema: { hide: true } }, async (request, reply) => {
    const f = hooks.signedForm(request, ['MessageSid', 'From', 'To']);
    const outcome = await acceptInboundMessage(deps.repos, hooks.ctx(request), {
      messageSid: f.MessageSid,
      from: f.From,
      to: f.To,
      body: f.Body ?? '',
    });
    if (outcome.kind === 'unknown_number') {
      request.log.warn({ to: f.To }, 'Twilio message to a number no organization owns');
    } else if (outcome.orgs.length > 0) {
      request.log.info(
        { message_sid: f.MessageSid, orgs: outcome.orgs },
        'Twilio reply recorded in the consent history',
      );
    }
    // An empty answer: the service (or Twilio's own opt-out handling) does the replying.
    return reply.type('text/xml').send(emptyMessagingTwiml());
  });
}

/** The keypress opt-out's <Gather> action on an outbound call. */
function keypressOptOutWebhook(app: FastifyInstance, hooks: TwilioHooks): void {
  const { deps } = hooks;
  app.post(TWILIO_OPTOUT_PATH, { schema: { hide: true } }, async (request, reply) => {
    const f = hooks.signedForm(request, []);
    const touchId = (request.query as Record<string, unknown>).touch;
    if (typeof touchId !== 'string' || touchId === '')
      throw errors.invalidCarrierRequest(['touch']);
    if (f.CallSid === undefined) throw errors.invalidCarrierRequest(['CallSid']);
    const outcome = await acceptKeypress(deps.repos, hooks.ctx(request), {
      touchId,
      callSid: f.CallSid,
      digits: f.Digits ?? '',
    });
    if (outcome === 'unknown_touch') {
      request.log.warn({ touch: touchId }, 'Twilio keypress for a touch we did not place');
    }
    const xml =
      outcome === 'revoked' || outcome === 'repeat'
        ? goodbyeTwiml(OPTED_OUT)
        : goodbyeTwiml('Goodbye.');
    return reply.type('text/xml').send(xml);
  });
}
