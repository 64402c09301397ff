/**
 * dni-swap: replaces a campaign's default phone number(s) on a page with the
 * visitor's tracking number, asked of the firm's own route (never of the
 * tracking service: the key stays on the firm's server).
 *
 *   <script async src="/dni-swap.min.js" data-endpoint="/tracking-number"
 *           data-numbers="+14155550100" data-timeout-ms="800"></script>
 *
 * It keeps each number's written form ((415) 555-0100, 415-555-0100,
 * 415.555.0100, +1 415 555 0100, tel: links) by replacing digits one for one,
 * follows content added later, remembers the number in a cookie until the
 * session expires (the next page swaps without a request), and leaves the
 * default in place when no answer comes within the budget. A page without any
 * of the default numbers costs no request.
 */
(() => {
  const script = document.currentScript;
  if (!script) return;
  const endpoint = script.getAttribute('data-endpoint');
  const defaults = (script.getAttribute('data-numbers') || '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => /^\+[1-9]\d{6,14}$/.test(n));
  if (!endpoint || !defaults.length) return;
  const budget = Number(script.getAttribute('data-timeout-ms')) || 800;
  const COOKIE = 'dni_swap';

  // The digits a written number may show: a North American number with or
  // without its country code 1, any other only with its country code.
  const variants = defaults.map((n) => {
    const all = n.slice(1);
    const national = all[0] === '1' ? all.slice(1) : null;
    // Between two digits: up to two of space, dot, dash, parentheses.
    const digits = (d) => d.split('').join('[\\s.()\\u00a0-]{0,2}');
    const body = national
      ? `(?:\\+?1[\\s.\\u00a0-]?)?\\(?${digits(national)}`
      : `\\+?${digits(all)}`;
    return new RegExp(`(?<![\\d+])${body}(?!\\d)`, 'g');
  });

  /** The visitor's number in the form of `written`: its digits replaced one for one. */
  const rewrite = (written, e164) => {
    const want = e164.slice(1);
    const count = written.replace(/\D/g, '').length;
    // A national form (10 digits) of a +1 number drops the country code.
    const digits = want.length > count ? want.slice(want.length - count) : want;
    if (digits.length !== count) return written;
    let i = 0;
    return written.replace(/\d/g, () => digits[i++]);
  };

  let number = null;
  let asked = false;

  /** What may be written into a page: an E.164 number, from the route or from the cookie alike. */
  const e164 = (n) => typeof n === 'string' && /^\+[1-9]\d{6,14}$/.test(n);

  // The cookie is as untrusted as the network: another script of the site,
  // a subdomain or the visitor may have written it.
  const remembered = () => {
    const m = document.cookie.match(/(?:^|; )dni_swap=([^;]*)/);
    if (!m) return null;
    try {
      const v = JSON.parse(decodeURIComponent(m[1]));
      // For another set of default numbers (another campaign's script): not ours.
      return v &&
        v.d === defaults.join() &&
        typeof v.x === 'string' &&
        Date.parse(v.x) > Date.now() &&
        e164(v.n)
        ? v.n
        : null;
    } catch {
      return null;
    }
  };

  const remember = (n, expiresAt) => {
    const seconds = Math.floor((Date.parse(expiresAt) - Date.now()) / 1000);
    if (!(seconds > 0)) return;
    const value = encodeURIComponent(JSON.stringify({ n, x: expiresAt, d: defaults.join() }));
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser yet
    document.cookie = `${COOKIE}=${value}; Path=/; Max-Age=${seconds}; SameSite=Lax${
      location.protocol === 'https:' ? '; Secure' : ''
    }`;
  };

  const replaceIn = (text) => {
    let out = text;
    for (const re of variants) out = out.replace(re, (m) => rewrite(m, number));
    return out;
  };
  const found = (text) =>
    variants.some((re) => {
      re.lastIndex = 0;
      return re.test(text);
    });

  /** Swaps under `root` when the number is known; otherwise asks for it once a default is seen. */
  const scan = (root) => {
    const hits = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === 3) {
        const parent = node.parentNode;
        if (
          parent &&
          !/^(SCRIPT|STYLE|TEXTAREA|NOSCRIPT)$/.test(parent.nodeName) &&
          found(node.data)
        )
          hits.push(node);
      } else if (node.nodeName === 'A') {
        const href = node.getAttribute('href') || '';
        if (/^tel:/i.test(href) && found(href.slice(4))) hits.push(node);
      }
    }
    if (!hits.length) return;
    if (!number) return ask();
    // Only real changes are written: each write is a mutation the observer sees.
    for (const node of hits) {
      if (node.nodeType === 3) {
        const next = replaceIn(node.data);
        if (next !== node.data) node.data = next;
      } else {
        const href = node.getAttribute('href');
        const next = `tel:${replaceIn(href.slice(4))}`;
        if (next !== href) node.setAttribute('href', next);
      }
    }
  };

  const ask = () => {
    if (asked) return;
    asked = true;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), budget);
    fetch(
      `${endpoint}${endpoint.includes('?') ? '&' : '?'}url=${encodeURIComponent(location.href)}`,
      {
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
        signal: abort.signal,
      },
    )
      .then((res) => (res.ok ? res.json() : null))
      .then((body) => {
        clearTimeout(timer);
        const n = body?.phoneNumber;
        // The default number (no session) or nonsense: the page stays as it is.
        if (!e164(n) || typeof body.expiresAt !== 'string') return;
        number = n;
        remember(n, body.expiresAt);
        scan(document.documentElement);
      })
      // Too slow, unreachable or refused: the default number stays, silently.
      .catch(() => {});
  };

  number = remembered();
  const start = () => {
    scan(document.documentElement);
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData') scan(r.target.parentNode || r.target);
        else if (r.type === 'attributes') scan(r.target);
        else for (const node of r.addedNodes) scan(node);
      }
    }).observe(document.documentElement, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['href'],
    });
  };
  // An async script may run before the body is parsed: scan what exists now,
  // the observer sees the rest arrive.
  start();
})();
