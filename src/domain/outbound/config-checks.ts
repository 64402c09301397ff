/**
 * The named checks of the campaign config schema (config-schema.ts): what a schema cannot say.
 * Each takes a value that already has the schema's shape and answers null, or why it is refused;
 * the admin API's validator reports that as a Pydantic `value_error` at the value
 * (src/http/validate.ts), a touch's recheck of a stored config as a problem (campaign-config.ts).
 */
import { parseHhmm } from '../compliance/tables.js';
import { e164Problem } from '../phone/e164.js';

export type ConfigCheck = (value: unknown) => string | null;

const MAX_FUNNEL_NODE = 64;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const configChecks: Record<string, ConfigCheck> = {
  e164: e164Problem,
  window_order: (v) => {
    const w = v as { start: string; end: string };
    return parseHhmm(w.start) < parseHhmm(w.end) ? null : 'start must be before end';
  },
  http_url: (v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v as string).protocol)
        ? null
        : 'must be an http or https URL';
    } catch {
      return 'must be an http or https URL';
    }
  },
  non_blank: (v) => ((v as string).trim() === '' ? 'must not be blank' : null),
  funnel_node_names: (v) =>
    isRecord(v) && Object.keys(v).every((k) => k.length > 0 && [...k].length <= MAX_FUNNEL_NODE)
      ? null
      : `funnel node names must have 1 to ${MAX_FUNNEL_NODE} characters`,
  no_nested_variants: (v) =>
    isRecord(v) && Object.hasOwn(v, 'variants') ? 'a variant cannot have variants' : null,
};
