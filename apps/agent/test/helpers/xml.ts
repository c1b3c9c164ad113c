/**
 * A strict reader of the small XML files the agent writes (WinSW's service file): elements,
 * attributes in double quotes, text with the five predefined entities, comments and the XML
 * declaration. It throws on anything else (a bare `&`, an unclosed or crossed tag), as a real
 * XML parser would; the repository has none to lean on.
 */
export type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';') || !(name in ENTITIES)) throw new Error(`not XML: "${whole}" is no entity`);
    return ENTITIES[name]!;
  });
}

function attributesOf(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const rest = source.replace(/\s+([A-Za-z_][\w.:-]*)="([^"<]*)"/g, (_, name: string, value: string) => {
    if (name in attributes) throw new Error(`not XML: attribute ${name} twice`);
    attributes[name] = decode(value);
    return '';
  });
  if (rest.trim() !== '') throw new Error(`not XML: attributes "${source}"`);
  return attributes;
}

export function parseXml(source: string): XmlElement {
  const body = source.replace(/^\uFEFF?<\?xml[^?]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  for (const [token] of body.matchAll(/<[^>]*>|[^<]+/g)) {
    const top = stack.at(-1);
    if (!token.startsWith('<')) {
      if (top) top.text += decode(token);
      else if (token.trim() !== '') throw new Error('not XML: text outside the root element');
      continue;
    }
    const close = /^<\/([A-Za-z_][\w.:-]*)\s*>$/.exec(token);
    if (close) {
      if (top?.name !== close[1]) throw new Error(`not XML: </${close[1]}> closes <${top?.name ?? 'nothing'}>`);
      stack.pop();
      continue;
    }
    const open = /^<([A-Za-z_][\w.:-]*)((?:\s+[^>]*?)?)\s*(\/?)>$/.exec(token);
    if (!open) throw new Error(`not XML: ${token}`);
    const element: XmlElement = { name: open[1]!, attributes: attributesOf(open[2] ?? ''), children: [], text: '' };
    if (top) top.children.push(element);
    else if (root) throw new Error('not XML: a second root element');
    else root = element;
    if (open[3] !== '/') stack.push(element);
  }
  if (!root || stack.length > 0) throw new Error(`not XML: <${stack.at(-1)?.name ?? 'root'}> is not closed`);
  return root;
}
