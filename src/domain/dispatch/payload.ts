import type { Channel } from '../compliance/index.js';
import type { OutboundConfig } from '../outbound/campaign-config.js';

/** What a carrier needs to place a touch, fixed when the touch is decided. */
export interface DispatchPayload {
  touch_id: string;
  channel: Channel;
  to: string;
  /** The campaign's caller id; null when the config names none. */
  from: string | null;
  /** SMS text, or the words spoken on a call; rendered with dynamic_variables. */
  text: string | null;
  /** TwiML for calls, rendered with XML-escaped dynamic_variables. */
  twiml: string | null;
  /** The recording a voicemail drop plays. */
  recording_url: string | null;
  template_id: string | null;
  /** Said before a call waits for the opt-out key; absent in jobs queued before it existed. */
  opt_out_prompt?: string | null;
}

type Variables = Record<string, string | number | boolean | null>;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

export function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `{{name}}` becomes the variable's value; an unknown name becomes empty text. */
export function render(template: string, vars: Variables, encode = (s: string) => s): string {
  return template.replace(PLACEHOLDER, (_m, name: string) => {
    const v = Object.hasOwn(vars, name) ? vars[name] : null;
    return v === null || v === undefined ? '' : encode(String(v));
  });
}

export function buildPayload(
  touchId: string,
  req: {
    to: string;
    channel: Channel;
    template_id?: string | undefined;
    dynamic_variables?: Variables | undefined;
  },
  config: OutboundConfig,
): DispatchPayload {
  const templateId = req.template_id ?? 'default';
  const template = config.templates?.[templateId];
  const vars = req.dynamic_variables ?? {};
  return {
    touch_id: touchId,
    channel: req.channel,
    to: req.to,
    from: config.caller_id ?? null,
    text: template?.text ? render(template.text, vars) : null,
    twiml: template?.twiml ? render(template.twiml, vars, xmlEscape) : null,
    recording_url: config.recording_url ?? null,
    template_id: template ? templateId : null,
    ...(config.opt_out_prompt ? { opt_out_prompt: config.opt_out_prompt } : {}),
  };
}
