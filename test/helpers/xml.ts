/** A parsed XML element: enough to check TwiML without a parser dependency. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      return String.fromCodePoint(
        e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)),
      );
    }
    const v = ENTITIES[e];
    if (v === undefined) throw new Error(`unknown entity ${m}`);
    return v;
  });
}

/**
 * A strict parser for the XML subset TwiML uses (declaration, elements,
 * attributes, text, entities); throws on anything malformed, so a test that
 * parses a response also proves it is well-formed.
 */
export function parseXml(source: string): XmlElement {
  let rest = source.replace(/^<\?xml[^?]*\?>/, '');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const tag = /^<(\/?)([A-Za-z][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"<]*")*)\s*(\/?)>/;
  while (rest.length > 0) {
    const top = stack[stack.length - 1]!;
    if (rest[0] !== '<') {
      const end = rest.indexOf('<');
      const text = end === -1 ? rest : rest.slice(0, end);
      if (/[<>]/.test(text)) throw new Error(`stray markup in text: ${text}`);
      if (top === root && text.trim() !== '') throw new Error('text outside the root element');
      top.text += decode(text);
      rest = end === -1 ? '' : rest.slice(end);
      continue;
    }
    const m = tag.exec(rest);
    if (!m) throw new Error(`malformed tag at: ${rest.slice(0, 40)}`);
    const [whole, closing, name, attrs, selfClosing] = m;
    rest = rest.slice(whole.length);
    if (closing) {
      if (top.name !== name || attrs || selfClosing) throw new Error(`unexpected </${name}>`);
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const a of attrs!.matchAll(/([A-Za-z_][\w.:-]*)="([^"]*)"/g)) {
      if (a[1]! in attributes) throw new Error(`duplicate attribute ${a[1]}`);
      attributes[a[1]!] = decode(a[2]!);
    }
    const el: XmlElement = { name: name!, attributes, children: [], text: '' };
    if (top === root && root.children.length > 0) throw new Error('more than one root element');
    top.children.push(el);
    if (!selfClosing) stack.push(el);
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  const [doc] = root.children;
  if (!doc) throw new Error('no root element');
  return doc;
}
