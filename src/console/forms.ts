import { type Html, html } from './html.js';

/** What a form was given back with: the values as typed, and a message per field. */
export interface FormState {
  values: Record<string, string>;
  errors: Record<string, string>;
}

export const emptyForm = (values: Record<string, string> = {}): FormState => ({
  values,
  errors: {},
});

/** The attributes of a field with a problem: read out with it by a screen reader. */
export function invalid(f: FormState, name: string, id: string): Html {
  return f.errors[name] ? html` aria-invalid="true" aria-describedby="${id}-error"` : html``;
}

/** The message next to a field; nothing when it has no problem. */
export function fieldError(f: FormState, name: string, id: string): Html {
  const e = f.errors[name];
  return e ? html`<span class="field-error" id="${id}-error">${e}</span>` : html``;
}

/** A line at the top of a form sent back with problems. */
export function formProblems(f: FormState): Html {
  const n = Object.keys(f.errors).length;
  return n === 0
    ? html``
    : html`<p class="error" role="alert">${n === 1 ? 'One field needs' : `${n} fields need`} a change: see below. Nothing was saved.</p>`;
}
