import { describe, expect, it } from 'vitest';
import { sanitizeSvg, SvgError } from './svg-sanitize.ts';
import { sniffImage } from './locations.service.ts';

const wrap = (inner: string, attrs = '') => `<svg xmlns="http://www.w3.org/2000/svg"${attrs}>${inner}</svg>`;

describe('sanitizeSvg', () => {
  it('keeps drawing', () => {
    const out = sanitizeSvg(wrap('<g id="a"><path d="M0 0L10 10" stroke="#000"/><text x="1" y="2">Room &lt;1&gt; &amp; 2</text></g><use href="#a"/>', ' viewBox="0 0 10 10"'));
    expect(out).toContain('<path d="M0 0L10 10" stroke="#000"/>');
    expect(out).toContain('Room &lt;1&gt; &amp; 2');
    expect(out).toContain('<use href="#a"/>');
    expect(out).toContain('viewBox="0 0 10 10"');
  });

  it.each([
    ['a script element', '<script>alert(1)</script>', 'alert'],
    ['a script in CDATA', '<script><![CDATA[alert(1)]]></script>', 'alert'],
    ['an event handler', '<rect onclick="alert(1)" ONLOAD="x()"/>', 'alert'],
    ['a javascript: link', '<a href="javascript:alert(1)"><text>x</text></a>', 'javascript'],
    ['an entity-encoded javascript: href', '<use href="&#106;avascript:alert(1)"/>', 'avascript'],
    ['an external use', '<use xlink:href="http://evil.example/x.svg#a"/>', 'evil'],
    ['an external image', '<image href="http://evil.example/x.png"/>', 'evil'],
    ['an svg image as data', '<image href="data:image/svg+xml;base64,PHN2Zz4="/>', 'data:'],
    ['foreignObject', '<foreignObject><iframe src="http://evil.example"/></foreignObject>', 'evil'],
    ['an external url() in a style', '<rect style="fill:url(http://evil.example/p)"/>', 'evil'],
    ['an escaped url() in a style', '<rect style="fill:u\\72l(http://evil.example/p)"/>', 'evil'],
    ['an @import in a style element', '<style>@import "http://evil.example/x.css";</style>', 'evil'],
    ['animation setting a href', '<set attributeName="href" to="javascript:alert(1)"/>', 'javascript'],
    ['xml:base', '<g xml:base="http://evil.example/"><use href="#a"/></g>', 'evil'],
    ['a namespace redefinition', '<g xmlns="http://www.w3.org/1999/xhtml"/>', 'xhtml'],
    ['a processing instruction', '<?xml-stylesheet href="http://evil.example/x.xsl"?>', 'evil'],
  ])('removes %s', (_, inner, bad) => {
    const out = sanitizeSvg(wrap(inner));
    expect(out.toLowerCase()).not.toContain(bad);
    expect(out).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg">/);
  });

  it('drops a DOCTYPE with entities instead of expanding them', () => {
    const out = sanitizeSvg(`<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>${wrap('<text>&b;&a;</text>')}`);
    expect(out).not.toContain('aaaa');
    expect(out).not.toContain('ENTITY');
  });

  it('keeps inline raster images', () => {
    expect(sanitizeSvg(wrap('<image href="data:image/png;base64,iVBORw0KGgo="/>'))).toContain('data:image/png;base64,iVBORw0KGgo=');
  });

  it('refuses what is not an SVG', () => {
    expect(() => sanitizeSvg('<html><body>hi</body></html>')).toThrow(SvgError);
    expect(() => sanitizeSvg('just text')).toThrow(SvgError);
  });
});

describe('sniffImage', () => {
  it('tells the accepted types by their bytes', () => {
    expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImage(Buffer.from('\uFEFF<?xml version="1.0"?>\n<!-- plan -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('image/svg+xml');
    expect(sniffImage(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImage(Buffer.from('<html><svg></svg></html>'))).toBeNull();
  });
});
