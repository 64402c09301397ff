/**
 * What the reply reader knows, as data: keywords, phrases, emoji, the wordings that must not
 * revoke, and the answers that ask to keep messages. docs/outbound.md ("How a reply is read")
 * explains the order they are applied in; test/unit/carrier-inbound/corpus/ holds the wordings
 * they are tested against, each with its source.
 *
 * Every pattern runs on one clause of the normalized reply (normalize.ts): lower case, no
 * accents or apostrophes ("don't" is "dont", "bórrenme" is "borrenme", "m'appelez" is
 * "mappelez"), words separated by one space, keywords already spelled as their first form.
 *
 * Sources: CTIA Messaging Principles and Best Practices (2023) and the carriers' short-code
 * keyword lists (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT); 47 CFR 64.1200(a)(10) and
 * FCC 24-24 ¶¶ 27-31 (stop, quit, end, revoke, opt out, cancel, unsubscribe, and any words a
 * reasonable person would read as revocation); the CWTA / Canadian carriers' French keywords
 * (ARRET, ARRÊT); compliance-rules.md Part B §1.4, §2.4 and §2.5.
 */

export type Lang = 'en' | 'es' | 'fr' | 'any';
export type Family =
  | 'keyword'
  | 'phrase'
  | 'wrong_number'
  | 'dnc'
  | 'emoji'
  | 'organization_phrase'
  | 'doubt';

export interface Keyword {
  /** Recorded as `matched_word`. */
  key: string;
  lang: Lang;
  /** Spellings, normalized and without doubled letters; a multi-word form is written joined. */
  forms: readonly string[];
  /** Edits allowed when the word stands alone in a short clause (0: exact only). */
  fuzzy: number;
  /**
   * `strong`: revokes wherever it stands; `standard`: revokes alone or with companion words, and
   * makes any other clause doubtful; `weak`: revokes alone or with companions, and is an
   * ordinary word inside a sentence ("the end of the day", "precio alto").
   */
  strength: 'strong' | 'standard' | 'weak';
  family?: Family;
}

export const KEYWORDS: readonly Keyword[] = [
  {
    key: 'STOP',
    lang: 'en',
    forms: ['stop', 'stp', 'stahp', 'stawp'],
    fuzzy: 1,
    strength: 'standard',
  },
  { key: 'STOP ALL', lang: 'en', forms: ['stopal'], fuzzy: 1, strength: 'strong' },
  {
    key: 'UNSUBSCRIBE',
    lang: 'en',
    forms: ['unsubscribe', 'unsub', 'unsuscribe', 'unsubscribed', 'unsubscribing', 'unsubcribe'],
    fuzzy: 2,
    strength: 'strong',
  },
  { key: 'CANCEL', lang: 'en', forms: ['cancel'], fuzzy: 1, strength: 'standard' },
  { key: 'END', lang: 'en', forms: ['end'], fuzzy: 0, strength: 'weak' },
  { key: 'QUIT', lang: 'en', forms: ['quit'], fuzzy: 1, strength: 'standard' },
  { key: 'REVOKE', lang: 'en', forms: ['revoke'], fuzzy: 1, strength: 'strong' },
  { key: 'OPT OUT', lang: 'en', forms: ['optout', 'optmeout'], fuzzy: 1, strength: 'strong' },
  { key: 'REMOVE', lang: 'en', forms: ['remove'], fuzzy: 1, strength: 'weak' },
  { key: 'NO MORE', lang: 'en', forms: ['nomore'], fuzzy: 0, strength: 'weak' },
  { key: 'HALT', lang: 'en', forms: ['halt', 'cease'], fuzzy: 0, strength: 'weak' },
  { key: 'DNC', lang: 'en', forms: ['dnc', 'dnd'], fuzzy: 0, strength: 'strong', family: 'dnc' },
  {
    key: 'ARRÊT',
    lang: 'fr',
    forms: ['aret', 'arete', 'aretez', 'areter', 'arets'],
    fuzzy: 1,
    strength: 'standard',
  },
  {
    key: 'DÉSABONNER',
    lang: 'fr',
    forms: [
      'desabone',
      'desaboner',
      'desabonez',
      'desabonement',
      'desinscrire',
      'desinscription',
      'desinscrivez',
      'desinscris',
      'desabonemoi',
    ],
    fuzzy: 2,
    strength: 'strong',
  },
  { key: 'ANNULER', lang: 'fr', forms: ['anuler', 'anulez'], fuzzy: 1, strength: 'standard' },
  { key: 'FIN', lang: 'fr', forms: ['fin'], fuzzy: 0, strength: 'weak' },
  {
    key: 'PARAR',
    lang: 'es',
    forms: ['parar', 'paren', 'pare', 'parale', 'parenle'],
    fuzzy: 1,
    strength: 'standard',
  },
  { key: 'ALTO', lang: 'es', forms: ['alto'], fuzzy: 0, strength: 'weak' },
  { key: 'BASTA', lang: 'es', forms: ['basta'], fuzzy: 1, strength: 'standard' },
  { key: 'CANCELAR', lang: 'es', forms: ['cancelar'], fuzzy: 1, strength: 'standard' },
  { key: 'ELIMINAR', lang: 'es', forms: ['eliminar', 'eliminarme'], fuzzy: 1, strength: 'weak' },
  { key: 'BAJA', lang: 'es', forms: ['baja'], fuzzy: 0, strength: 'weak' },
  { key: 'NO MÁS', lang: 'es', forms: ['nomas'], fuzzy: 0, strength: 'standard' },
  {
    key: 'DESUSCRIBIR',
    lang: 'es',
    forms: [
      'desuscribir',
      'desuscribirme',
      'desuscribanme',
      'desuscribeme',
      'desinscribir',
      'desinscribirme',
      'desuscripcion',
      'desuscribe',
    ],
    fuzzy: 2,
    strength: 'strong',
  },
  {
    key: 'DETENER',
    lang: 'es',
    forms: ['detener', 'detente', 'detengan', 'detenga'],
    fuzzy: 1,
    strength: 'standard',
  },
];

/**
 * Ordinary words one edit away from a keyword: never read as a misspelt keyword ("shop" is not
 * "stop", "quite" is not "quit").
 */
export const NEAR_MISSES: ReadonlySet<string> = new Set(
  (
    'step stomp shop top atop sto stoup soup spot slop stope stops stoped ' +
    'quite quiet quiz suit quilt qui quito quits ' +
    'cancer camel candle canal ' +
    'alta altos bajo baja bajas ' +
    'paro para parra pasar paga ' +
    'pasta vasta base bast hasta gasta basto ' +
    'remote removed ' +
    'areas arte arrest arent arts alert abet' +
    ' revoked reverse cancelled canceled cancels cancelling canceling cancellation candles'
  ).split(' '),
);

/**
 * Words that may stand beside a keyword in a clause that is still a plain request to stop:
 * politeness, the person, the messages, insistence.
 */
export const COMPANIONS: ReadonlySet<string> = new Set(
  (
    'please pls plz plse pleas now all any more thanks thank thx ty you u ya yall me my i us ' +
    'this these them it that those text texts texting txt txts txting message messages ' +
    'messaging msg msgs sms call calls calling send sending contact contacting email emails ' +
    'to from of ok okay k just already again immediately asap right seriously said told ' +
    'the for good forever ever permanently now dude man bro omg god lol wtf damn dammit ' +
    'fucking fuckin freaking frickin hell yo hey hi hello sir maam thankyou kindly ' +
    'number list subscription and with # ' +
    'por favor porfa porfavor favor ya gracias mensaje mensajes textos texto llamadas ' +
    'llamar enviar de los las la el me mi ahora todo todos yo ustedes usted oiga ' +
    'svp stp merci sil vous plait tous tout toutes maintenant moi je les de des ' +
    'appels courriels sms l d j m n s c t qu'
  ).split(' '),
);

export interface PhraseRule {
  /** Recorded as the deciding rule. */
  id: string;
  family: Family;
  lang: Lang;
  meaning: 'revoke' | 'unclear';
  pattern: RegExp;
  /** The wording suggests the number changed hands (also recorded as `possibly_reassigned`). */
  reassigned?: boolean;
}

const MSG =
  '(?:text|txt|msg|messag|sms|mms|call|contact|bother|harass|spam|email|e mail|send|sent|ring|phone|hit me up|reach|notif|alert|promo|advert|ad|offer|deal|update|remind)\\w*';
/** Negations that protect a keyword ("don't stop the deals"). */
const NEG =
  '(?:dont|do not|donot|never|didnt|did not|cant|cannot|can not|no need to|wont|doesnt|not going to|shouldnt)';
/** Negations that ask ("don't text me", "never call again"). */
const ASK_NOT = '(?:dont|do not|donot|never|pls dont|please dont|plz dont|dont ever|do not ever)';
const ME =
  '(?:me|my (?:phone |cell |mobile )?(?:number|num|#|name|info|details|contact(?: info)?)|this (?:number|phone|cell)|us|my cell|my phone)';
const LIST =
  '(?:list|lists|database|db|system|contacts|records|mailing|roster|file|texts|calls|messages|marketing|blast|group|line)';

/** Phrases a reasonable person reads as "stop contacting me", or as doubt. First match decides. */
export const PHRASES: readonly PhraseRule[] = [
  // English: wrong number and its shorthands (the number may have changed hands).
  {
    id: 'en.wrong_number',
    family: 'wrong_number',
    lang: 'en',
    meaning: 'revoke',
    reassigned: true,
    pattern:
      /\b(?:wrong|wrng|rong|worng|wromg|wron|wrog|incorrect)(?: ?(?:number|numbr|numer|nmbr|nbr|num|numba|no|#|person|persn|guy|girl|lady|phone|cell|contact|texter|one))\b/,
  },
  {
    id: 'en.wrong_number_short',
    family: 'wrong_number',
    lang: 'en',
    meaning: 'revoke',
    reassigned: true,
    pattern: /^(?:wn|w n|wrong|wrong #|rong #)$/,
  },
  {
    id: 'en.not_my_number',
    family: 'wrong_number',
    lang: 'en',
    meaning: 'revoke',
    reassigned: true,
    pattern:
      /\b(?:not my (?:number|name|phone)|(?:you|u) (?:have|got|texted|called|reached|have got) (?:the |a )?wrong|no (?:one|body) (?:here )?(?:by|named|called|with) (?:that|this)|nobody (?:here )?(?:by|named|called)|(?:theres|there is) no \w+ (?:here|at this number)|(?:doesnt|does not|dont|no longer) (?:live|work|have this number|use this number|own this number)|(?:i )?(?:just )?got (?:this|a) (?:new )?number|this is (?:a )?new number|new (?:owner|number) of this|not the person you|i dont know (?:any|anyone|who)|(?:this|it) (?:isnt|is not) \w+s? (?:number|phone)|(?:i am|im) not (?:\w+ )?(?:the person|who you think))\b/,
  },
  {
    id: 'en.not_that_person',
    family: 'wrong_number',
    lang: 'en',
    meaning: 'revoke',
    reassigned: true,
    pattern:
      /^(?:this is not|this isnt|its not|this aint|im not|i am not) (?!now|yet|today|tonight|tomorrow|sure|really|interested|bad|good|right|ready|available|me|much|that|this|it|you|here|home|again|anymore|so|yours|mine|working|true|funny|ok|okay|cool|fair|happening|what|a|the|going|coming|buying|busy|free|around|able|allowed|there|in|at|on)[a-z]+$/,
  },
  // English: asking to be taken off, left alone, not contacted.
  {
    id: 'en.take_me_off',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern: new RegExp(
      `\\b(?:remove|delete|drop|erase|scratch|cross|wipe|purge|strike|unsubscribe|unlist)\\w* ${ME}(?: (?:out|off))? (?:off|from|out of)\\b|\\b(?:take|get|pull|tak)\\w* ${ME} (?:off|out of)\\b`,
    ),
  },
  {
    id: 'en.remove_me',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern: new RegExp(
      `\\b(?:remove|delete|erase|lose|forget|purge|unsubscribe|unsub|optout|unlist) ${ME}\\b|\\b(?:remove|unsubscribe|unsub|delete|optout) me\\b|\\bforget about me\\b|\\blose (?:this|my) number\\b`,
    ),
  },
  {
    id: 'en.off_your_list',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern: new RegExp(
      `\\b(?:off|out of) (?:your|ur|the|this|ya) (?:\\w+ )?${LIST}\\b|\\bfrom (?:your|ur) (?:\\w+ )?${LIST}\\b`,
    ),
  },
  {
    id: 'en.dont_contact',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern: new RegExp(
      `\\b(?:${ASK_NOT}|(?<!(?:dont|never|not) )(?:stop|quit|cease|stp)|no more|done with|enough|tired of|sick of|too many|no longer|not want|never want) (?:ever |again |any more |anymore |more |to |you |u |keep |keep on |be |with |the |these |those |your |ur |all |all the |all these |my |all your |getting |receiving |any |want |wanna |wish |like |receive |get |further )*${MSG}\\b`,
    ),
  },
  {
    id: 'en.taken_off',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern:
      /\b(?:taken|removed|deleted|unsubscribed|erased|dropped|struck) (?:off|from|out of)\b|\bopt (?:me|us|my number|this number) out\b|\bcease and desist\b/,
  },
  {
    id: 'en.stop_object',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern:
      /\b(?:stop|quit|cease|halt|end|cancel|unsubscribe|stopal) (?:it|this|these|that|them|all|everything|now|immediately|right now|asap|the (?:\w+ )?(?:texts|messages|calls|spam|emails|alerts|notifications|promos)|my subscription|subscription|messages|texts|the madness|this nonsense|this crap|this shit|this spam)\b|\bput (?:a stop|an end) to\b/,
  },
  {
    id: 'en.make_it_stop',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern:
      /\b(?:make (?:it|this|them) stop|want (?:it|this|them|these|the texts|the messages) to (?:stop|end)|(?:how|where) (?:do|can|to) (?:i )?(?:stop|unsubscribe|optout|get off|remove myself|opt out)|why (?:dont|wont|cant) (?:you|u) (?:just )?(?:stop|quit|leave|remove|take)|i (?:said|told you|already said) (?:to )?(?:stop|no|quit|remove)|(?:i want|i wanna|i would like|id like|i need|i wish|i want you) to (?:stop|unsubscribe|optout|be removed|end this))\b/,
  },
  {
    id: 'es.ya_no_alone',
    family: 'phrase',
    lang: 'es',
    meaning: 'revoke',
    pattern: /^(?:ya no|ya no mas|nomas|no mas)$/,
  },
  {
    id: 'en.leave_me_alone',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern:
      /\b(?:leave (?:me|us) (?:alone|be)|go away|get lost|(?:fuck|f|piss|bugger|buzz|back|sod|eff) off|fuck (?:you|u)|f u|stfu|shut up|lose (?:my|this) number|do not disturb|leave me out)\b/,
  },
  {
    id: 'en.withdraw_consent',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern:
      /\b(?:withdraw|revoke|rescind|retract|cancel|remove|pull|take back|terminate|end)\w* (?:my |all |any |of my )?(?:consent|permission|authori[sz]ation|opt ?in|agreement|approval)\b|\b(?:i )?(?:do not|dont|no longer|never) (?:consent|give (?:you )?(?:my )?(?:consent|permission)|agree to (?:be|receive|these|this))\b/,
  },
  {
    id: 'en.do_not_call',
    family: 'dnc',
    lang: 'en',
    meaning: 'revoke',
    pattern:
      /\b(?:do not|dont|pls dont|please dont) (?:call|contact|text|msg|message)(?: list)?\b|\bdo ?not ?call\b|\bd ?n ?c\b|\bput me on (?:your|the|a) (?:do not|dont|dnc|no call)/,
  },
  {
    id: 'en.no_more',
    family: 'phrase',
    lang: 'en',
    meaning: 'revoke',
    pattern:
      /^(?:no more|nomore|enough already|enough is enough|i want out|count me out|no (?:calls|texts|txts|messages|msgs|sms|contact|spam)(?: please| pls| thanks)?)$|\btake (?:me )?off (?:the |your |ur )?list\b/,
  },
  // English: doubt. Treated as a revocation until the person says they want messages.
  {
    id: 'en.doubt.stop_by',
    family: 'doubt',
    lang: 'en',
    meaning: 'unclear',
    pattern: /\b(?:stop|stp) (?:by|in|over|past|at|there|here|on)\b/,
  },
  {
    id: 'en.doubt.not_interested',
    family: 'doubt',
    lang: 'en',
    meaning: 'unclear',
    pattern:
      /\b(?:not interested|no interest|no thanks?|no thank (?:you|u)|nah|no ty|not for me|no longer interested)\b/,
  },
  {
    id: 'en.doubt.never_signed_up',
    family: 'doubt',
    lang: 'en',
    meaning: 'unclear',
    pattern:
      /\b(?:never|didnt|did not|dont remember) (?:sign\w* up|subscrib\w*|opt\w* in|optin|ask\w* for|agree\w*|give (?:you )?(?:my|this) number|gave (?:you )?(?:my|this) number)\b|\bhow did (?:you|u) get (?:my|this) number\b|\b(?:never|didnt|did not) (?:give|gave) (?:you |u )?(?:my |any )?(?:permission|consent)\b/,
  },
  {
    id: 'en.doubt.complaint',
    family: 'doubt',
    lang: 'en',
    meaning: 'unclear',
    pattern:
      /\b(?:spam|spammer|scam|scammer|harassment|harassing|report\w* (?:you|u|this|as)|block\w* (?:you|u|this|your)|(?:i will|ill|going to|gonna) (?:block|report|sue)|lawyer|attorney|tcpa|fcc|ftc)\b/,
  },
  {
    id: 'en.doubt.enough',
    family: 'doubt',
    lang: 'en',
    meaning: 'unclear',
    pattern:
      /^(?:enough|out|im out|im done|unfollow|mute|silence|dont want|i dont want|no quiero|ya no quiero|block|blocked|blocking)$/,
  },
  {
    id: 'en.doubt.cancel_thing',
    family: 'doubt',
    lang: 'en',
    meaning: 'unclear',
    pattern: /\bcancel (?:my|the|our|this|that|it|your)\b/,
  },
  // Spanish.
  {
    id: 'es.numero_equivocado',
    family: 'wrong_number',
    lang: 'es',
    meaning: 'revoke',
    reassigned: true,
    pattern:
      /\b(?:numero|num|no) (?:equivocado|equivocada|incorrecto|errado|erroneo|erroneo|equivocao)\b|\bequivocad[oa]s?\b|\bse equivoc\w* de (?:numero|persona)\b|\b(?:no es|este no es) mi (?:numero|nombre)\b|\bno (?:conozco a|soy|vive aqui|hay nadie)\b|\bnumero nuevo\b/,
  },
  {
    id: 'es.ya_no',
    family: 'phrase',
    lang: 'es',
    meaning: 'revoke',
    pattern:
      /\b(?:ya )?no (?:me |nos |le |mas )?(?:vuelv\w* a |sigan |sigas )?(?:escrib|mand|envi|llam|contact|molest|text|marqu|busqu)(?:an|en|as|es|a|e|ar|ir|ear|een|ees|ando|iendo)(?:me|nos)?\b/,
  },
  {
    id: 'es.no_quiero',
    family: 'phrase',
    lang: 'es',
    meaning: 'revoke',
    pattern:
      /\b(?:ya )?no (?:quiero|deseo|necesito|me interesa)(?: (?:recibir|seguir recibiendo|mas|sus|tus|los|las|ningun|ninguna|ningunos|esos|estos|estas|esas))* (?:mensajes?|textos?|sms|llamadas?|promociones?|ofertas?|notificaciones?|nada|correos?|informacion|publicidad)\b|\bya no (?:quiero|deseo)\b/,
  },
  {
    id: 'es.borrenme',
    family: 'phrase',
    lang: 'es',
    meaning: 'revoke',
    pattern:
      /\b(?:borr|elimin|quit|sac|remuev|retir|excl)\w*(?: me| mi (?:numero|nombre|telefono|celular))? (?:de )?(?:su|la|tu|esta|sus|vuestra|sus|la) (?:lista|base|sistema|registro|listas)\b|\b(?:borren|borrame|borrenme|eliminame|eliminenme|sacame|saquenme|quitenme|quitame|retirenme)\b|\b(?:borr|elimin)\w* (?:mi|este) (?:numero|telefono|contacto)\b/,
  },
  {
    id: 'es.dar_de_baja',
    family: 'phrase',
    lang: 'es',
    meaning: 'revoke',
    pattern:
      /\b(?:dar(?:me|se|nos)?|doy|den(?:me)?|quiero|deseo|solicito|pido|denme) (?:de )?(?:la )?baja\b|\bme doy de baja\b/,
  },
  {
    id: 'es.dejen_de',
    family: 'phrase',
    lang: 'es',
    meaning: 'revoke',
    pattern:
      /\b(?:dej\w*|paren?|para|parar|basta|deten\w*) de (?:escrib|mand|envi|llam|molest|contact|text|spam)\w*\b/,
  },
  {
    id: 'es.dejame_en_paz',
    family: 'phrase',
    lang: 'es',
    meaning: 'revoke',
    pattern:
      /\b(?:dej\w* en paz|dej\w* tranquil\w*|no molest\w*|no mas (?:mensajes?|textos?|sms|llamadas?|promociones?|spam)|ya basta|cancelar (?:suscripcion|mensajes|todo|la suscripcion|mi suscripcion)|no mas por favor|ya no mas)\b/,
  },
  {
    id: 'es.retiro_consentimiento',
    family: 'phrase',
    lang: 'es',
    meaning: 'revoke',
    pattern:
      /\b(?:retiro|revoco|cancelo|anulo) (?:mi )?(?:consentimiento|permiso|autorizacion)\b|\bno (?:autorizo|doy (?:mi )?(?:permiso|consentimiento))\b/,
  },
  {
    id: 'es.doubt',
    family: 'doubt',
    lang: 'es',
    meaning: 'unclear',
    pattern:
      /\b(?:no me interesa|no gracias|no estoy interesad[oa]|nunca (?:me )?(?:suscrib|inscrib|registr)\w*|como (?:obtuvieron|consiguieron|tienen) mi numero|spam|acoso|denunci\w*|bloque\w*)\b/,
  },
  // French (Canada).
  {
    id: 'fr.mauvais_numero',
    family: 'wrong_number',
    lang: 'fr',
    meaning: 'revoke',
    reassigned: true,
    pattern:
      /\b(?:mauvais|faux) (?:numero|num|no|#)\b|\berreur de numero\b|\bpas (?:le bon|mon) numero\b|\btromp\w* de (?:numero|personne)\b|\bje ne connais pas\b/,
  },
  {
    id: 'fr.ne_plus',
    family: 'phrase',
    lang: 'fr',
    meaning: 'revoke',
    pattern:
      /\bne (?:me |m |nous )?m?(?:appel|contact|ecri|envoy|text|derang|relanc|solicit|sollicit)\w* (?:plus|jamais)\b|\bje (?:ne )?veux (?:plus|pas) (?:de |d|recevoir|vos|ces|les)|\bne plus (?:m |me )?(?:recevoir|etre contact|envoy|appel|ecri|text|contact)/,
  },
  {
    id: 'fr.retirez_moi',
    family: 'phrase',
    lang: 'fr',
    meaning: 'revoke',
    pattern:
      /\b(?:retir|enlev|supprim|eff|ray|desinscri|desabon)\w*(?: moi| mon (?:numero|nom))? (?:de )?(?:votre|la|vos|cette|ta|tes|vos) (?:liste|base|listes|fichier|repertoire)\b|\b(?:retirez|enlevez|supprimez|effacez|desinscrivez|desabonnez|desabonez|rayez)(?: moi| mon numero)\b/,
  },
  {
    id: 'fr.laissez_moi',
    family: 'phrase',
    lang: 'fr',
    meaning: 'revoke',
    pattern:
      /\b(?:laiss\w* moi (?:tranquille|en paix)|fich\w* moi la paix|fout\w* moi la paix|plus de (?:messages?|textos?|sms|appels?|courriels?|pub\w*)|arr?et\w* de (?:m |me )?(?:appel|ecri|envoy|text|contact|derang)\w*|je (?:retire|revoque|annule) mon (?:consentement|autorisation)|je me desabon\w*)\b/,
  },
  {
    id: 'fr.doubt',
    family: 'doubt',
    lang: 'fr',
    meaning: 'unclear',
    pattern:
      /\b(?:pas interess\w*|non merci|ca ne minteresse pas|ne minteresse pas|qui est ce|pourriel|harcelement)\b/,
  },
];

/** Protected wordings: the keyword in them is an ordinary word. Their words are set aside. */
export const PROTECTED: readonly { id: string; lang: Lang; pattern: RegExp }[] = [
  {
    id: 'en.negated_keyword',
    lang: 'en',
    pattern: new RegExp(
      `(?<!\\bwhy )\\b${NEG}(?: ever| you dare| you)? (?:stop|end|quit|cancel|unsubscribe|remove)\\b(?: (?:the|those|these|my|your|sending|texting|them|it)\\b)?`,
    ),
  },
  {
    id: 'en.quit_habit',
    lang: 'en',
    pattern:
      /\b(?:quit|stop|quitting|stopping|stopped|cancel|end)(?: \w+)? (?:smoking|vaping|drinking|smoke|vape|cigarettes?|cigs|tobacco|alcohol|booze|caffeine|coffee|sugar|soda|chew\w*|dipping|weed|gambling|eating|worrying|snoring|(?:my |her |his |their |our |the |a |your )?(?:job|jobs|work|school|college|team|gym|band)|cold turkey|for good and|crying|laughing|thinking|smiling)\b/,
  },
  {
    id: 'en.stop_noun',
    lang: 'en',
    pattern:
      /\b(?:bus|next|last|first|one|pit|non|truck|rest|full|final|short|quick|every|each|your|our|the) stop\b|\bstop (?:sign|light|watch|loss|gap|motion|n go|and go|the presses)\b/,
  },
  {
    id: 'en.end_noun',
    lang: 'en',
    pattern:
      /\b(?:the|high|low|back|front|dead|year|month|week|rear|deep|loose|tail|west|east) end\b|\bend (?:of|up|date|time|result|user|game|point)\b/,
  },
  {
    id: 'es.negated_keyword',
    lang: 'es',
    pattern:
      /\bno (?:puedo|pueden|podemos|vamos a|van a|quiero|se te ocurra) (?:parar|cancelar|detener)\b|\bsin parar\b/,
  },
  {
    id: 'es.word_in_sentence',
    lang: 'es',
    pattern:
      /\b(?:basta con|no mas (?:de|que)|fin de semana|en alto|muy alto|mas alto|precio alto)\b/,
  },
  {
    id: 'fr.word_in_sentence',
    lang: 'fr',
    pattern:
      /\b(?:arr?et (?:de bus|d autobus|de travail|dautobus)|sans arr?et|n arr?et\w* (?:pas|jamais)|fin de semaine)\b/,
  },
];

/** Emoji that mean stop: alone or anywhere in the reply they revoke. */
export const STOP_EMOJI: ReadonlySet<string> = new Set([
  '🛑',
  '⛔',
  '🚫',
  '✋',
  '🤚',
  '📵',
  '🙅',
  '🔕',
  '🚷',
  '🔇',
  '🙊',
]);
/** Emoji that may mean stop: alone they are doubtful. */
export const DOUBT_EMOJI: ReadonlySet<string> = new Set([
  '❌',
  '✖',
  '👎',
  '🖕',
  '😡',
  '🤬',
  '👋',
  '🗑',
  '💢',
  '😤',
  '🙄',
  '😠',
]);

/** Replies that ask to resume: history only, they restore nothing (a new grant does). */
export const RESUBSCRIBE: readonly string[] = ['start', 'unstop', 'subscribe', 'resume'];

/**
 * Answers to the clarification question that say the person wants messages. Read only as an
 * answer to that question, and only when the reply reads as nothing else.
 */
export const WANTS_MESSAGES =
  /^(?:(?:yes|yeah|yea|yep|yup|si|oui|correct)(?: (?:please|pls|keep|continue|send|thanks|thank you|por favor|svp|merci|i do|i want them|keep them coming|keep texting|keep sending))*|keep|keep (?:them|it|texting|sending|the texts|the messages)(?: coming| going)?(?: please| pls)?|continue|continuar|continuer|seguir|start|unstop|i want (?:them|messages|texts|the messages|the texts|to keep|to stay)|(?:no )?(?:please )?dont stop|(?:no )?i (?:do )?want (?:them|messages|texts)|no keep (?:them|texting|sending)|i didnt mean (?:to )?stop|not stop|no dont stop)$/;
