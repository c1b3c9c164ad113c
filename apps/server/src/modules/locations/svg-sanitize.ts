import { Worker } from 'node:worker_threads';

/**
 * Rebuilds an SVG from a whitelist, so that what comes back out can be shown to every user of
 * a location: no scripts, no event handlers, no references outside the document (hrefs other
 * than `#id`, `url()` other than `url(#id)`, `@import`), no DOCTYPE (entity expansion), no
 * foreignObject (HTML inside SVG). Unknown elements are dropped with their content. The image
 * is also served with a CSP that forbids scripts, so this is the first of two walls.
 */

const ELEMENTS = new Set([
  'svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'metadata', 'switch',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
  'text', 'tspan', 'textPath',
  'linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask', 'marker',
  'filter', 'feGaussianBlur', 'feOffset', 'feBlend', 'feColorMatrix', 'feComposite', 'feFlood',
  'feMerge', 'feMergeNode', 'feMorphology', 'feDropShadow',
  'style', 'image',
]);

/** Elements whose text is kept (others may hold text too; it is escaped in any case). */
const HREF_ATTRS = new Set(['href', 'xlink:href']);
const NAMESPACES: Record<string, string> = {
  xmlns: 'http://www.w3.org/2000/svg',
  'xmlns:xlink': 'http://www.w3.org/1999/xlink',
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{0,31});/g, (_, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '';
    }
    return ENTITIES[e] ?? '';
  });
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/** CSS without its comments; an unclosed one runs to the end, as the browser reads it. */
function withoutComments(css: string): string {
  let out = '';
  for (let i = 0; ;) {
    const start = css.indexOf('/*', i);
    if (start === -1) return out + css.slice(i);
    out += css.slice(i, start);
    const end = css.indexOf('*/', start + 2);
    if (end === -1) return out;
    i = end + 2;
  }
}

/** CSS is safe when every url() points inside the document and nothing is imported or scripted. */
function safeCss(css: string): boolean {
  // Escapes decoded first: `u\72l(` is `url(` to the browser.
  const unescaped = css
    .replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_, h: string) => {
      const cp = parseInt(h, 16);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '';
    })
    .replace(/\\(.)/g, '$1');
  const flat = withoutComments(unescaped).toLowerCase();
  if (/@import|@font-face|expression\s*\(|image-set\s*\(|src\s*\(|javascript:|behavior\s*:|-moz-binding/.test(flat)) return false;
  for (const m of flat.matchAll(/url\s*\(\s*(['"]?)\s*([^'")]*)/g)) if (!m[2].startsWith('#')) return false;
  return true;
}

/** Raster images embedded as data: URIs stay; anything that loads from elsewhere goes. */
const safeImageHref = (v: string) => /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i.test(v);

function safeAttr(element: string, name: string, value: string): boolean {
  const lower = name.toLowerCase();
  if (lower.startsWith('on')) return false;
  if (lower in NAMESPACES) return value === NAMESPACES[lower];
  if (lower.startsWith('xmlns') || lower.startsWith('xml:base')) return false;
  if (!/^[A-Za-z_][A-Za-z0-9_.:-]*$/.test(name)) return false;
  if (name.includes(':') && !/^(xlink:href|xml:space|xml:lang)$/.test(name)) return false;
  if (HREF_ATTRS.has(lower)) return element === 'image' ? safeImageHref(value.trim()) : value.trim().startsWith('#');
  const v = value.toLowerCase().replace(/\s+/g, '');
  if (v.includes('javascript:') || v.includes('data:text') || v.includes('vbscript:')) return false;
  return safeCss(value);
}

export class SvgError extends Error {}

/**
 * The pieces of a start tag, each one run of a character class read from a given index (`y`):
 * none can backtrack into another.
 */
const TAG_NAME = /[A-Za-z_][A-Za-z0-9_.:-]*/y;
const SPACES = /\s*/y;
const ATTR_NAME = /[^\s=/><]+/y;
const EQUALS = /\s*=\s*/y;
const VALUE = /"([^"<]*)"|'([^'<]*)'|([^\s"'><]+)/y;

/** The run of `re` at `at`, or null. */
function runAt(re: RegExp, src: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(src);
}

type StartTag = { name: string; attrs: [name: string, value: string][]; selfClosing: boolean; end: number };

/**
 * The start tag at `lt`, or null when what follows "<" is not one. It never reads past the next
 * "<" (no tag holds one, nor does XML allow one in an attribute's value), so however broken the
 * document, each character is read a bounded number of times: a pattern that backtracks read
 * 100 KB of unclosed tags for a minute, and the whole server waited (issue 52).
 */
function readTag(src: string, lt: number): StartTag | null {
  const name = runAt(TAG_NAME, src, lt + 1)?.[0];
  if (!name) return null;
  let j = lt + 1 + name.length;
  const attrs: [string, string][] = [];
  for (;;) {
    const spaces = runAt(SPACES, src, j)![0].length;
    j += spaces;
    if (src[j] === '>') return { name, attrs, selfClosing: false, end: j + 1 };
    if (src[j] === '/') return src[j + 1] === '>' ? { name, attrs, selfClosing: true, end: j + 2 } : null;
    // Attributes are apart from the name and from each other.
    const attr = spaces ? runAt(ATTR_NAME, src, j)?.[0] : undefined;
    if (!attr) return null;
    j += attr.length;
    const equals = runAt(EQUALS, src, j);
    if (!equals) {
      attrs.push([attr, '']);
      continue;
    }
    const value = runAt(VALUE, src, j + equals[0].length);
    if (!value) return null;
    attrs.push([attr, value[1] ?? value[2] ?? value[3]]);
    j = VALUE.lastIndex;
  }
}

/** Returns the sanitised document; throws SvgError when it is not an SVG at all. */
export function sanitizeSvg(input: string): string {
  const src = input.replace(/^\uFEFF/, '');
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  const stack: string[] = [];
  /** Depth inside a dropped element: everything until its end tag is dropped. */
  let skip = 0;
  let skipName = '';
  let seenRoot = false;
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const text = src.slice(i, lt === -1 ? src.length : lt);
    if (text && !skip && stack.length) {
      const el = stack[stack.length - 1];
      const t = decode(text);
      if (el !== 'style' || safeCss(t)) out.push(escapeText(t));
    }
    if (lt === -1) break;
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      i = end === -1 ? src.length : end + 3;
      continue;
    }
    if (src.startsWith('<![CDATA[', lt)) {
      const end = src.indexOf(']]>', lt + 9);
      const body = src.slice(lt + 9, end === -1 ? src.length : end);
      const el = stack[stack.length - 1];
      if (!skip && el && (el !== 'style' || safeCss(body))) out.push(escapeText(body));
      i = end === -1 ? src.length : end + 3;
      continue;
    }
    if (src.startsWith('<!', lt)) {
      // DOCTYPE (possibly with an internal subset) and other declarations: dropped.
      let depth = 0;
      let j = lt + 2;
      for (; j < src.length; j++) {
        if (src[j] === '[') depth++;
        else if (src[j] === ']') depth--;
        else if (src[j] === '>' && depth <= 0) break;
      }
      i = j + 1;
      continue;
    }
    if (src.startsWith('<?', lt)) {
      const end = src.indexOf('?>', lt + 2);
      i = end === -1 ? src.length : end + 2;
      continue;
    }
    if (src.startsWith('</', lt)) {
      const end = src.indexOf('>', lt);
      const name = src.slice(lt + 2, end === -1 ? src.length : end).trim();
      i = end === -1 ? src.length : end + 1;
      if (skip) {
        if (name === skipName) skip--;
        continue;
      }
      if (stack.length && stack[stack.length - 1] === name) {
        stack.pop();
        out.push(`</${name}>`);
      }
      continue;
    }
    const tag = readTag(src, lt);
    if (!tag) {
      // A stray "<": treat it as text.
      if (!skip && stack.length) out.push('&lt;');
      i = lt + 1;
      continue;
    }
    i = tag.end;
    const { name, attrs, selfClosing } = tag;
    if (skip) {
      if (name === skipName && !selfClosing) skip++;
      continue;
    }
    if (!seenRoot && name !== 'svg') throw new SvgError('not an svg');
    if (!ELEMENTS.has(name) || (name === 'svg' && seenRoot && !stack.length)) {
      if (!selfClosing) {
        skip = 1;
        skipName = name;
      }
      continue;
    }
    seenRoot = true;
    const kept: string[] = [];
    for (const [attr, raw] of attrs) {
      const value = decode(raw);
      if (safeAttr(name, attr, value)) kept.push(` ${attr}="${escapeAttr(value)}"`);
    }
    if (name === 'svg' && !stack.length && !kept.some((k) => k.startsWith(' xmlns='))) kept.unshift(` xmlns="${NAMESPACES.xmlns}"`);
    out.push(`<${name}${kept.join('')}${selfClosing ? '/' : ''}>`);
    if (!selfClosing) stack.push(name);
  }
  if (!seenRoot) throw new SvgError('not an svg');
  while (stack.length) out.push(`</${stack.pop()}>`);
  return out.join('');
}

/**
 * sanitizeSvg in a worker thread: a plan of 10 MB takes seconds to read, and the server answers
 * meanwhile (issue 52). Rejects with SvgError as sanitizeSvg throws it.
 */
export function sanitizeSvgOffThread(data: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./svg-sanitize.worker.ts', import.meta.url), { workerData: data });
    worker.once('message', (m: { svg: Uint8Array } | { notSvg: true }) => {
      if ('svg' in m) resolve(Buffer.from(m.svg.buffer, m.svg.byteOffset, m.svg.byteLength));
      else reject(new SvgError('not an svg'));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the SVG sanitiser stopped (exit code ${code})`)));
  });
}
