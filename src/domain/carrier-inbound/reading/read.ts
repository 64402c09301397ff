/**
 * What a text reply means for consent: a revocation, a doubtful reply, a request to resume, an
 * answer that the person wants messages, or nothing. The rules are data (rules.ts); this file
 * applies them in one order, the same for every reply:
 *
 * 1. normalize (normalize.ts) and split into clauses;
 * 2. stop emoji and the organization's own phrases revoke;
 * 3. in each clause, protected wordings ("don't stop the deals", "I quit smoking", "bus stop")
 *    are set aside, keywords are recognised (exact after normalizing; with a small edit
 *    distance when the word stands in a short clause), then phrases and keywords decide;
 * 4. a revocation anywhere wins over doubt, doubt over nothing.
 *
 * Doubt is not "no": the caller treats a doubtful reply as a revocation until the person says
 * they want messages (opt-out.ts).
 */
import { editDistance, normalizeReply, squeeze } from './normalize.js';
import {
  COMPANIONS,
  DOUBT_EMOJI,
  type Family,
  KEYWORDS,
  type Keyword,
  type Lang,
  NEAR_MISSES,
  PHRASES,
  PROTECTED,
  RESUBSCRIBE,
  STOP_EMOJI,
  WANTS_MESSAGES,
} from './rules.js';

export type ReplyMeaning = 'revoke' | 'unclear' | 'resubscribe' | 'wants_messages' | null;

export interface ReplyReading {
  meaning: ReplyMeaning;
  /** The keyword (as listed), phrase rule example or emoji that decided; null for none. */
  matched: string | null;
  /** The family of the deciding rule. */
  family: Family | null;
  /** The deciding rule's id (`keyword:STOP`, `en.take_me_off`, `emoji`…); null for none. */
  rule: string | null;
  lang: Lang | null;
  /** True for a clear revocation; false for doubt and for everything else. */
  clear: boolean;
  /** The reply says the number is not the person's (wrong number): it may have changed hands. */
  possiblyReassigned: boolean;
  /** The normalized text the rules read (evidence). */
  normalized: string;
}

/** A shorter clause than this may hold a misspelt keyword ("stpo", "unsubscirbe"). */
const FUZZY_CLAUSE_WORDS = 3;
/** Keywords of at least this length are looked for across two adjacent words ("un subscribe"). */
const JOINABLE_LENGTH = 4;

interface Finding {
  meaning: 'revoke' | 'unclear';
  family: Family;
  rule: string;
  matched: string;
  lang: Lang;
  reassigned: boolean;
}

const FORMS = new Map<string, Keyword>();
for (const k of KEYWORDS) for (const f of k.forms) FORMS.set(squeeze(f), k);

function keywordOf(word: string, clauseLength: number): Keyword | null {
  const exact = FORMS.get(squeeze(word));
  if (exact) return exact;
  if (clauseLength > FUZZY_CLAUSE_WORDS || NEAR_MISSES.has(word) || word.length < 4) return null;
  let best: { k: Keyword; d: number } | null = null;
  for (const k of KEYWORDS) {
    if (k.fuzzy === 0) continue;
    for (const f of k.forms) {
      if (f.length < 4) continue;
      const d = editDistance(squeeze(word), f, k.fuzzy);
      if (d <= k.fuzzy && (!best || d < best.d)) best = { k, d };
    }
  }
  return best?.k ?? null;
}

interface Token {
  word: string;
  keyword: Keyword | null;
}

/** The clause's words with keywords recognised, adjacent words joined when they spell one. */
function tokenize(words: readonly string[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const next = words[i + 1];
    if (next !== undefined) {
      const joined = FORMS.get(squeeze(w + next));
      if (joined && squeeze(w + next).length >= JOINABLE_LENGTH) {
        out.push({ word: joined.forms[0] as string, keyword: joined });
        i++;
        continue;
      }
    }
    if (w === '_') {
      out.push({ word: w, keyword: null });
      continue;
    }
    const k = keywordOf(w, words.length);
    out.push({ word: k ? (k.forms[0] as string) : w, keyword: k });
  }
  return out;
}

function readClause(words: readonly string[]): Finding[] {
  let raw = words.join(' ');
  for (const p of PROTECTED) raw = raw.replace(new RegExp(p.pattern.source, 'g'), ' _ ');
  const kept = raw.split(' ').filter((w) => w !== '');
  const tokens = tokenize(kept);
  const canonical = tokens.map((t) => t.word).join(' ');
  const findings: Finding[] = [];
  for (const rule of PHRASES) {
    const m = rule.pattern.exec(raw.trim()) ?? rule.pattern.exec(canonical);
    if (!m) continue;
    findings.push({
      meaning: rule.meaning,
      family: rule.family,
      rule: rule.id,
      matched: m[0].trim(),
      lang: rule.lang,
      reassigned: rule.reassigned ?? false,
    });
  }
  const keywordFindings: Finding[] = [];
  const others = tokens.filter((t) => !t.keyword);
  const plain = others.every((t) => COMPANIONS.has(t.word));
  for (const t of tokens) {
    const k = t.keyword;
    if (!k) continue;
    let meaning: Finding['meaning'] | null = null;
    if (k.strength === 'strong' || plain) meaning = 'revoke';
    else if (k.strength === 'standard') meaning = 'unclear';
    if (meaning === null) continue;
    keywordFindings.push({
      meaning,
      family: k.family ?? (meaning === 'unclear' ? 'doubt' : 'keyword'),
      rule: `keyword:${k.key}`,
      matched: k.key,
      lang: k.lang,
      reassigned: false,
    });
  }
  // A plain keyword is named as the keyword; doubt is named by its phrase when one matched.
  return [
    ...keywordFindings.filter((f) => f.meaning === 'revoke'),
    ...findings,
    ...keywordFindings.filter((f) => f.meaning !== 'revoke'),
  ];
}

/** Whether the organization's phrase occurs, word for word, in the reply. */
function containsPhrase(words: readonly string[], phrase: string): boolean {
  const target = normalizeReply(phrase).clauses.flat();
  if (target.length === 0) return false;
  for (let i = 0; i + target.length <= words.length; i++) {
    if (target.every((w, j) => squeeze(words[i + j] as string) === squeeze(w))) return true;
  }
  return false;
}

const NOTHING = {
  matched: null,
  family: null,
  rule: null,
  lang: null,
  clear: false,
  possiblyReassigned: false,
} as const;

export function readReply(body: string, organizationPhrases: readonly string[] = []): ReplyReading {
  const n = normalizeReply(body);
  const normalized = n.text;
  const words = n.clauses.flat();
  const decided = (f: Finding): ReplyReading => ({
    meaning: f.meaning,
    matched: f.matched,
    family: f.family,
    rule: f.rule,
    lang: f.lang,
    clear: f.meaning === 'revoke',
    possiblyReassigned: f.reassigned,
    normalized,
  });

  const findings: Finding[] = [];
  const stopEmoji = n.emoji.find((e) => STOP_EMOJI.has(e));
  if (stopEmoji) {
    findings.push({
      meaning: 'revoke',
      family: 'emoji',
      rule: 'emoji.stop',
      matched: stopEmoji,
      lang: 'any',
      reassigned: false,
    });
  }
  for (const phrase of organizationPhrases) {
    if (containsPhrase(words, phrase)) {
      findings.push({
        meaning: 'revoke',
        family: 'organization_phrase',
        rule: 'organization_phrase',
        matched: phrase,
        lang: 'any',
        reassigned: false,
      });
    }
  }
  for (const clause of n.clauses) findings.push(...readClause(clause));
  const doubtEmoji = n.emoji.find((e) => DOUBT_EMOJI.has(e));
  if (words.length === 0 && doubtEmoji) {
    findings.push({
      meaning: 'unclear',
      family: 'emoji',
      rule: 'emoji.doubt',
      matched: doubtEmoji,
      lang: 'any',
      reassigned: false,
    });
  }
  // Wrong number is reported whatever decided, since it says something about the number.
  const reassigned = findings.some((f) => f.reassigned);
  const revoke = findings.find((f) => f.meaning === 'revoke');
  if (revoke) return { ...decided(revoke), possiblyReassigned: reassigned };
  const doubt = findings.find((f) => f.meaning === 'unclear');
  if (doubt) return { ...decided(doubt), possiblyReassigned: reassigned };

  const whole = words.join(' ');
  if (RESUBSCRIBE.includes(words.join(''))) {
    return { meaning: 'resubscribe', ...NOTHING, rule: 'resubscribe', normalized };
  }
  if (WANTS_MESSAGES.test(whole)) {
    return { meaning: 'wants_messages', ...NOTHING, rule: 'wants_messages', normalized };
  }
  return { meaning: null, ...NOTHING, normalized };
}

/**
 * The comparable form of an organization's phrase: accents, case, punctuation and spacing
 * removed, so "Opt-out.", "OPT OUT" and "optout" are one phrase; empty when it has no letter or
 * digit (refused on write).
 */
export function phraseKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .split(/[^\p{L}\p{N}]+/u)
    .join('');
}

/** The standard keywords, every form (documentation and tests). */
export const KEYWORD_LIST: readonly string[] = KEYWORDS.map((k) => k.key);
