import { showBidi } from '../domain/text/bidi.js';

/**
 * HTML built by a tagged template that escapes every interpolated value, so a
 * value that came from outside (a campaign name, a UTM value, a buyer's note)
 * is text wherever it lands. Only `Html` values (built by this template) pass
 * through unescaped.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Entities, and bidirectional controls shown as their code points (as the CSV files do). */
export function escapeText(s: string): string {
  return showBidi(s.replace(/[&<>"'`]/g, (c) => ENTITIES[c]!));
}

function render(v: Value): string {
  if (v instanceof Html) return v.text;
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeText(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i] as Value) + strings[i + 1]!;
  return new Html(out);
}

/** Markup written by this service itself (an SVG chart built from numbers). */
export const trusted = (s: string) => new Html(s);
