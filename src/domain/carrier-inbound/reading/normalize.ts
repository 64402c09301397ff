/**
 * A reply as the reader compares it: emoji set aside, case, accents and apostrophes removed,
 * common leetspeak undone, dotted or spaced single letters joined ("S.T.O.P", "s t o p"), runs
 * of three or more of one letter cut to one ("stooop"), split into clauses at sentence
 * punctuation and into words at everything else. Unicode folding is the platform's
 * (`String.prototype.normalize`, NFKC then NFKD): it is the Unicode normaliser, no library adds
 * to it.
 */

export interface NormalizedReply {
  /** Each clause's words, in order; a clause is what sentence punctuation or a line break ends. */
  clauses: string[][];
  /** Emoji found, without skin tones, variation selectors or joiners. */
  emoji: string[];
  /** Every word of every clause, space-separated, clauses joined by " | " (evidence). */
  text: string;
}

const EMOJI = /\p{Extended_Pictographic}/u;
/** Skin tones, variation selectors, the zero-width joiner and gender signs that decorate emoji. */
const EMOJI_DECORATION = /^(?:[\u{1F3FB}-\u{1F3FF}]|\uFE0E|\uFE0F|\u200D|\u2640|\u2642)$/u;

const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  $: 's',
  '@': 'a',
  '!': 'i',
  '|': 'l',
};

/** A word with letters and leet characters ("st0p", "$top", "un5ub") read as letters. */
function unleet(word: string): string {
  if (!/[a-z]/.test(word) || !/[0-9$@!|]/.test(word)) return word;
  // "!" at either end is punctuation; a number with a unit ("4pm", "2nd") stays.
  const lead = /^!*/.exec(word)?.[0] ?? '';
  const core = word.slice(lead.length).replace(/!+$/, '');
  if (/^\d+[a-z]{1,2}$/.test(core)) return word;
  const tail = word.slice(lead.length + core.length);
  return lead + core.replace(/[0-9$@!|]/g, (c) => LEET[c] ?? c) + tail;
}

/** "s.t.o.p", "S T O P", "s-t-o-p": three or more single letters in a row become one word. */
function joinSpelledOut(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}])\p{L}(?:[ .\-_*·•/]+\p{L}(?![\p{L}\p{N}])){2,}/gu, (m) =>
    m.replace(/[^\p{L}]/gu, ''),
  );
}

export function normalizeReply(body: string): NormalizedReply {
  const emoji: string[] = [];
  let text = '';
  for (const ch of body.normalize('NFKC')) {
    if (EMOJI_DECORATION.test(ch)) continue;
    if (EMOJI.test(ch)) {
      emoji.push(ch);
      text += ' ';
    } else text += ch;
  }
  text = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    // French elision ("l'arrêt", "m'appelez") keeps its words apart; English contractions join.
    .replace(/(?<![\p{L}])(qu|[cdjlmnst])[’'`´ʼ](?=\p{L})/gu, '$1 ')
    .replace(/[’'`´ʼ]/g, '')
    .replace(/ß/g, 'ss');
  text = text.replace(/[a-z0-9$@!|]+/g, unleet);
  text = joinSpelledOut(text);
  text = text.replace(/(\p{L})\1{2,}/gu, '$1');
  const clauses = text
    .split(/[.!?;:,\n\r()¡¿"]+|\s-\s/u)
    .map((c) => c.split(/[^\p{L}\p{N}#]+/u).filter((w) => w !== ''))
    .filter((c) => c.length > 0);
  return { clauses, emoji, text: clauses.map((c) => c.join(' ')).join(' | ') };
}

/** Runs of one letter cut to one ("stopp" → "stop"): how keywords and words are compared. */
export function squeeze(word: string): string {
  return word.replace(/(.)\1+/g, '$1');
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions, each one edit),
 * stopping early past `max`. A transposition ("sotp", "unsbuscribe") is the commonest typo of a
 * short keyword, which plain Levenshtein counts as two; the matcher compares a word with a dozen
 * keywords of at most 12 letters, so a dependency would add nothing.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    let best = row[0] as number;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(
        (d[i - 1] as number[])[j]! + 1,
        row[j - 1]! + 1,
        (d[i - 1] as number[])[j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (d[i - 2] as number[])[j - 2]! + 1);
      }
      row[j] = v;
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
  }
  return (d[a.length] as number[])[b.length]!;
}
