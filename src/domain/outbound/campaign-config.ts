import { type CampaignComplianceConfig, mergeConfig, validateConfig } from '../compliance/index.js';
import { normalizeE164 } from '../phone/e164.js';

/** What a touch of a template says: SMS text (also spoken on calls) or TwiML for calls. */
export interface MessageTemplate {
  text?: string;
  twiml?: string;
}

/** A campaign `config` as the outbound endpoint reads it (docs/outbound.md lists every key). */
export interface OutboundConfig extends CampaignComplianceConfig {
  /** The number touches come from, E.164. */
  caller_id?: string;
  /** By `template_id`; `default` serves touches that name no template. */
  templates?: Record<string, MessageTemplate>;
  /** The recording a voicemail drop plays. */
  recording_url?: string;
  /**
   * The one text sent after a contact opts out by text (64.1200(a)(12)); none when absent.
   * It must not market. Read from the base config only.
   */
  opt_out_confirmation?: string;
  /** What a prerecorded call or voicemail drop says before it waits for the opt-out key. */
  opt_out_prompt?: string;
}

export interface CampaignConfigDoc extends OutboundConfig {
  variants?: Record<string, Partial<OutboundConfig>>;
}

const MAX_TEXT = 1600;
const MAX_TWIML = 4000;
const MAX_VARIANT_NAME = 64;
/** One SMS segment of GSM-7 text: a confirmation should never be split. */
const MAX_CONFIRMATION = 160;
const MAX_PROMPT = 500;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function isHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string' || v.length > 2048) return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}

function templateProblems(templates: unknown): string[] {
  if (!isObject(templates)) return ['templates must be an object of template id to template'];
  const problems: string[] = [];
  for (const [id, t] of Object.entries(templates)) {
    if (!isObject(t)) {
      problems.push(`templates.${id} must be an object with text and/or twiml`);
      continue;
    }
    for (const [key, value] of Object.entries(t)) {
      const max = key === 'text' ? MAX_TEXT : key === 'twiml' ? MAX_TWIML : 0;
      if (max === 0) problems.push(`templates.${id}: unknown key ${key}`);
      else if (typeof value !== 'string' || value.length === 0 || value.length > max) {
        problems.push(`templates.${id}.${key} must be a string of 1 to ${max} characters`);
      }
    }
  }
  return problems;
}

/** The keys this service reads besides the compliance ones; other keys pass through untouched. */
function ownKeyProblems(config: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (config.caller_id !== undefined) {
    if (typeof config.caller_id !== 'string' || normalizeE164(config.caller_id) === null) {
      problems.push('caller_id must be an E.164 number');
    }
  }
  if (config.recording_url !== undefined && !isHttpUrl(config.recording_url)) {
    problems.push('recording_url must be an http(s) URL');
  }
  if (config.templates !== undefined) problems.push(...templateProblems(config.templates));
  for (const [key, max] of [
    ['opt_out_confirmation', MAX_CONFIRMATION],
    ['opt_out_prompt', MAX_PROMPT],
  ] as const) {
    const v = config[key];
    if (v !== undefined && (typeof v !== 'string' || v.trim() === '' || v.length > max)) {
      problems.push(`${key} must be a string of 1 to ${max} characters`);
    }
  }
  return problems;
}

/** Every problem of a campaign config (base and variants); empty when the outbound endpoint can use it. */
export function campaignConfigProblems(raw: unknown): string[] {
  if (!isObject(raw)) return ['config must be an object'];
  const { variants, ...base } = raw;
  const problems = [...validateConfig(base), ...ownKeyProblems(base)];
  if (variants === undefined) return problems;
  if (!isObject(variants))
    return [...problems, 'variants must be an object of funnel node to config'];
  for (const [name, variant] of Object.entries(variants)) {
    const at = `variants.${name}`;
    if (name.length === 0 || name.length > MAX_VARIANT_NAME) {
      problems.push(`${at}: a funnel node name has 1 to ${MAX_VARIANT_NAME} characters`);
    }
    if (!isObject(variant)) {
      problems.push(`${at} must be an object`);
      continue;
    }
    if ('variants' in variant) problems.push(`${at}: variants cannot nest`);
    for (const p of [...validateConfig(variant), ...ownKeyProblems(variant)]) {
      problems.push(`${at}.${p}`);
    }
  }
  return problems;
}

export function hasVariant(raw: CampaignConfigDoc, node: string): boolean {
  return (
    isObject(raw.variants) && Object.hasOwn(raw.variants, node) && isObject(raw.variants[node])
  );
}

/**
 * The config a touch runs under: the base merged with the `funnel_node` variant (contract §5).
 * Templates merge per template id, so a variant can swap one template and keep the others.
 * Undefined when the node is not a variant of this campaign.
 */
export function touchConfig(
  raw: CampaignConfigDoc,
  funnelNode: string | undefined,
): OutboundConfig | undefined {
  if (funnelNode === undefined) return mergeConfig<OutboundConfig>(raw);
  if (!hasVariant(raw, funnelNode)) return undefined;
  const variant = raw.variants?.[funnelNode] as Partial<OutboundConfig>;
  const merged = mergeConfig<OutboundConfig>(raw, variant);
  if (raw.templates && variant.templates) {
    merged.templates = { ...raw.templates, ...variant.templates };
  }
  return merged;
}
