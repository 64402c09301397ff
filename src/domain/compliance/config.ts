import { parseHhmm, WEEKDAYS } from './tables.js';
import type {
  CallingWindow,
  CampaignComplianceConfig,
  Channel,
  ConsentBasis,
  ConsentTier,
  FrequencyCapsConfig,
  Purpose,
} from './types.js';

export const CHANNELS: readonly Channel[] = ['call', 'sms', 'voicemail'];
const TIER_RANK: Record<ConsentTier, number> = { none: 0, ebr: 1, pec: 2, pewc: 3 };

export function tierRank(tier: ConsentTier): number {
  return TIER_RANK[tier];
}

export function higherTier<T extends ConsentTier>(a: T, b: T): T {
  return tierRank(a) >= tierRank(b) ? a : b;
}

/** Whether marketing touches need a fresh national DNC scrub: on for marketing unless set off. */
export function scrubRequired(config: CampaignComplianceConfig | undefined): boolean {
  return purposeOf(config) === 'marketing' && config?.dnc_scrub !== false;
}

export function purposeOf(config: CampaignComplianceConfig | undefined): Purpose {
  return config?.purpose ?? 'marketing';
}

/** Part A point 3, raised (never lowered) by the campaign's `required_tier`. */
export function requiredTier(channel: Channel, config?: CampaignComplianceConfig): ConsentBasis {
  const base: ConsentBasis = purposeOf(config) === 'marketing' ? 'pewc' : 'pec';
  const override = config?.required_tier?.[channel];
  return override ? higherTier(base, override) : base;
}

function intersectWindows(a?: CallingWindow, b?: CallingWindow): CallingWindow | undefined {
  if (!a || !b) return a ?? b;
  const start = parseHhmm(a.start) >= parseHhmm(b.start) ? a.start : b.start;
  const end = parseHhmm(a.end) <= parseHhmm(b.end) ? a.end : b.end;
  const days = a.days && b.days ? a.days.filter((d) => b.days?.includes(d)) : (a.days ?? b.days);
  return days ? { start, end, days } : { start, end };
}

function minCaps(
  a?: FrequencyCapsConfig,
  b?: FrequencyCapsConfig,
): FrequencyCapsConfig | undefined {
  if (!a || !b) return a ?? b;
  const out: FrequencyCapsConfig = { ...a };
  for (const key of Object.keys(b) as (keyof FrequencyCapsConfig)[]) {
    const bv = b[key];
    const av = a[key];
    if (bv !== undefined) out[key] = av === undefined ? bv : Math.min(av, bv);
  }
  return out;
}

/**
 * The campaign config for a touch: `base` merged with the selected `variant` (contract §5).
 * Keys the engine does not know (caller id, templates…) are overridden by the variant; the
 * compliance keys only narrow: channels intersect, windows intersect, caps take the minimum,
 * required tiers the maximum, and `marketing` wins over `informational` (a variant cannot turn
 * a marketing campaign into an informational one). `variants` itself is not carried over.
 */
export function mergeConfig<T extends CampaignComplianceConfig>(
  base: T & { variants?: unknown },
  variant?: Partial<T>,
): T {
  const { variants: _variants, ...rest } = base;
  const baseConfig = rest as unknown as T;
  if (!variant) return baseConfig;
  const merged: T = { ...baseConfig, ...variant };
  const purposes = [baseConfig.purpose ?? 'marketing', variant.purpose ?? baseConfig.purpose];
  merged.purpose = purposes.includes('marketing') ? 'marketing' : 'informational';
  if (baseConfig.allowed_channels && variant.allowed_channels) {
    merged.allowed_channels = baseConfig.allowed_channels.filter((c) =>
      variant.allowed_channels?.includes(c),
    );
  }
  const window = intersectWindows(baseConfig.calling_window, variant.calling_window);
  if (window) merged.calling_window = window;
  const caps = minCaps(baseConfig.frequency_caps, variant.frequency_caps);
  if (caps) merged.frequency_caps = caps;
  if (baseConfig.required_tier && variant.required_tier) {
    const tiers = { ...baseConfig.required_tier };
    for (const channel of CHANNELS) {
      const v = variant.required_tier[channel];
      const b = tiers[channel];
      if (v) tiers[channel] = b ? higherTier(b, v) : v;
    }
    merged.required_tier = tiers;
  }
  // The scrub can only be switched on by either; an agent-dialed attestation needs both.
  if (baseConfig.dnc_scrub === true || variant.dnc_scrub === true) merged.dnc_scrub = true;
  if (baseConfig.agent_dialed !== true || variant.agent_dialed === false) {
    delete merged.agent_dialed;
  }
  return merged;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const CAP_KEYS = ['per_24h', 'per_7d', 'voicemail_per_24h', 'sms_per_24h'];
const WINDOW_KEYS = ['start', 'end', 'days'];

/**
 * Problems with a campaign's compliance config, for the admin API to reject on write. It takes
 * any JSON (the config arrives from an operator), so wrong shapes are reported, never thrown on:
 * a key the engine would silently ignore (a misspelt cap) is a problem too, because ignoring it
 * would loosen what the operator meant to tighten.
 */
export function validateConfig(config: CampaignComplianceConfig): string[] {
  const raw: unknown = config;
  if (!isObject(raw)) return ['config must be an object'];
  const problems: string[] = [];
  if (
    raw.purpose !== undefined &&
    !['marketing', 'informational'].includes(raw.purpose as string)
  ) {
    problems.push('purpose must be "marketing" or "informational"');
  }
  if (raw.allowed_channels !== undefined) {
    if (!Array.isArray(raw.allowed_channels)) problems.push('allowed_channels must be a list');
    else
      for (const c of raw.allowed_channels) {
        if (!CHANNELS.includes(c)) problems.push(`allowed_channels: unknown channel ${String(c)}`);
      }
  }
  const w = raw.calling_window;
  if (w !== undefined) {
    if (!isObject(w)) problems.push('calling_window must be an object with start and end');
    else {
      try {
        if (parseHhmm(w.start as string) >= parseHhmm(w.end as string))
          problems.push('calling_window: start must precede end');
      } catch {
        problems.push('calling_window: start and end must be HH:MM');
      }
      if (w.days !== undefined && !Array.isArray(w.days)) {
        problems.push('calling_window.days must be a list');
      } else {
        for (const d of (w.days as unknown[] | undefined) ?? []) {
          if (!WEEKDAYS.includes(d as never))
            problems.push(`calling_window.days: unknown day ${String(d)}`);
        }
      }
      for (const key of Object.keys(w)) {
        if (!WINDOW_KEYS.includes(key)) problems.push(`calling_window: unknown key ${key}`);
      }
    }
  }
  const caps = raw.frequency_caps;
  if (caps !== undefined) {
    if (!isObject(caps)) problems.push('frequency_caps must be an object');
    else
      for (const [key, value] of Object.entries(caps)) {
        if (!CAP_KEYS.includes(key)) problems.push(`frequency_caps: unknown cap ${key}`);
        else if (!Number.isInteger(value) || (value as number) < 0) {
          problems.push(`frequency_caps.${key} must be a non-negative integer`);
        }
      }
  }
  for (const key of ['dnc_scrub', 'agent_dialed']) {
    if (raw[key] !== undefined && typeof raw[key] !== 'boolean') {
      problems.push(`${key} must be true or false`);
    }
  }
  const tiers = raw.required_tier;
  if (tiers !== undefined) {
    if (!isObject(tiers)) problems.push('required_tier must be an object of channel to tier');
    else
      for (const [channel, tier] of Object.entries(tiers)) {
        if (
          !CHANNELS.includes(channel as Channel) ||
          !['pewc', 'pec', 'ebr'].includes(tier as string)
        ) {
          problems.push(`required_tier.${channel}: must be pewc, pec or ebr for a known channel`);
        }
      }
  }
  return problems;
}
