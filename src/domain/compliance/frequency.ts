import { purposeOf } from './config.js';
import { toIso, toMs } from './instant.js';
import { COMPILED_STATE_RULES } from './tables.js';
import type {
  CampaignComplianceConfig,
  Channel,
  FrequencyCapsConfig,
  PlacedTouch,
} from './types.js';
import { HOUR } from './tz.js';

export interface FrequencyCap {
  /** Which touches count (and which touches the cap binds): every kind, or one channel. */
  scope: 'all' | Channel;
  window_hours: number;
  max: number;
  source: 'default' | 'campaign' | `state:${string}`;
}

export interface FrequencyCapReport extends FrequencyCap {
  count: number;
  passed: boolean;
}

export interface FrequencyInput {
  channel: Channel;
  /** Placed touches only (blocked touches and dry runs never count). */
  history: readonly PlacedTouch[];
  config?: CampaignComplianceConfig;
  /** The candidate state; its caps bind marketing touches. */
  state?: string | null;
}

export interface FrequencyCheck {
  passed: boolean;
  code: 'frequency_capped' | null;
  caps: FrequencyCapReport[];
  next_allowed_at: string | null;
}

/** Part A point 5, per (organization, contact number), across campaigns and channels. */
const DEFAULT_CAPS: readonly (Omit<FrequencyCap, 'source'> & { key: keyof FrequencyCapsConfig })[] =
  [
    { key: 'per_24h', scope: 'all', window_hours: 24, max: 3 },
    { key: 'per_7d', scope: 'all', window_hours: 24 * 7, max: 7 },
    { key: 'voicemail_per_24h', scope: 'voicemail', window_hours: 24, max: 1 },
    { key: 'sms_per_24h', scope: 'sms', window_hours: 24, max: 2 },
  ];

/** The longest window any cap looks back over: placed touches older than this never count. */
export const LONGEST_WINDOW_HOURS = Math.max(
  ...DEFAULT_CAPS.map((c) => c.window_hours),
  ...[...COMPILED_STATE_RULES.values()].flatMap((r) =>
    (r.frequencyCaps ?? []).map((c) => c.windowHours),
  ),
);

/** The caps binding a touch on `channel`; campaign values only lower the defaults. */
export function capsFor(input: Omit<FrequencyInput, 'history'>): FrequencyCap[] {
  const caps: FrequencyCap[] = DEFAULT_CAPS.map(({ key, ...cap }) => {
    const wanted = input.config?.frequency_caps?.[key];
    return wanted !== undefined && wanted < cap.max
      ? { ...cap, max: Math.max(0, Math.floor(wanted)), source: 'campaign' }
      : { ...cap, source: 'default' };
  });
  if (purposeOf(input.config) === 'marketing' && input.state) {
    for (const cap of COMPILED_STATE_RULES.get(input.state)?.frequencyCaps ?? []) {
      caps.push({
        scope: 'all',
        window_hours: cap.windowHours,
        max: cap.max,
        source: `state:${input.state}`,
      });
    }
  }
  return caps.filter((c) => c.scope === 'all' || c.scope === input.channel);
}

/**
 * Earliest instant from which the touch passes every cap, with per-cap counts at `nowMs`.
 * A touch at t counts at instant x while t > x − window (recorded touches later than now count
 * too: they were placed). So the counts only fall over time, and a cap of `max` passes once the
 * max-th most recent counted touch has left its window. Null when a cap is 0 (never passes).
 */
export function frequencyThreshold(
  input: FrequencyInput,
  nowMs: number,
): { reports: FrequencyCapReport[]; passesFrom: number | null } {
  const touches = input.history.map((t) => ({ at: toMs(t.at), channel: t.channel }));
  let passesFrom: number | null = nowMs;
  const reports = capsFor(input).map((cap): FrequencyCapReport => {
    const windowMs = cap.window_hours * HOUR;
    const inScope = touches
      .filter((t) => cap.scope === 'all' || t.channel === cap.scope)
      .map((t) => t.at)
      .sort((a, b) => b - a);
    const count = inScope.filter((at) => at > nowMs - windowMs).length;
    const passed = count < cap.max;
    if (!passed && passesFrom !== null) {
      const kth = inScope[cap.max - 1];
      passesFrom = kth === undefined ? null : Math.max(passesFrom, kth + windowMs);
    }
    return { ...cap, count, passed };
  });
  return { reports, passesFrom };
}

export function checkFrequency(input: FrequencyInput, nowMs: number): FrequencyCheck {
  const { reports, passesFrom } = frequencyThreshold(input, nowMs);
  const passed = reports.every((r) => r.passed);
  return {
    passed,
    code: passed ? null : 'frequency_capped',
    caps: reports,
    next_allowed_at: passed || passesFrom === null ? null : toIso(passesFrom),
  };
}
