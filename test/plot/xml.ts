// A small, strict XML reader for our SVG output: elements, attributes and text; throws on mismatched tags.
export interface XmlNode {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlNode[];
  text: string;
}

const unescape = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

export function parseXml(src: string): XmlNode {
  const body = src.replace(/^<\?xml[^?]*\?>\s*/, '');
  const root: XmlNode = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  const re = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(body)) !== null) {
    consumed = re.lastIndex;
    const top = stack[stack.length - 1]!;
    if (m[5] !== undefined) {
      top.text += unescape(m[5]);
      continue;
    }
    const [, closing, name, rawAttrs, selfClosing] = m;
    if (closing) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of rawAttrs!.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = unescape(a[2]!);
    const node: XmlNode = { name: name!, attrs, children: [], text: '' };
    top.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  if (consumed !== body.length) throw new Error(`unparsed XML at offset ${consumed}: ${body.slice(consumed, consumed + 40)}`);
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (root.children.length !== 1 || root.children[0]!.name !== 'svg') throw new Error('the document is not one <svg> element');
  return root.children[0]!;
}

export function findAll(node: XmlNode, pred: (n: XmlNode) => boolean): XmlNode[] {
  const out: XmlNode[] = [];
  const walk = (n: XmlNode): void => {
    if (pred(n)) out.push(n);
    n.children.forEach(walk);
  };
  walk(node);
  return out;
}

export const hasClass = (n: XmlNode, c: string): boolean => (n.attrs['class'] ?? '').split(/\s+/).includes(c);
export const textsOf = (node: XmlNode): string[] => findAll(node, (n) => n.name === 'text').map((n) => n.text);
