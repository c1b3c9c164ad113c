import { describe, expect, it } from 'vitest';
import { alignColumns, htmlToText } from './mail-text.ts';

describe('the plain-text part of a mail', () => {
  it('keeps paragraphs, line breaks, lists and rules apart, and decodes entities', () => {
    const html = '<h2>Status &amp; supplies</h2><p>Device <strong>HP&nbsp;M404</strong> is <em>Недоступно</em>.<br>Since 26.11.2026</p><ul><li>Black 5%</li><li>Cyan 40%</li></ul><hr><p>Last   line</p>';
    expect(htmlToText(html)).toBe('Status & supplies\n\nDevice HP\u00a0M404 is Недоступно.\nSince 26.11.2026\n\n- Black 5%\n- Cyan 40%\n\n----------\n\nLast line\n');
  });

  it('gives a link its address, once, and none to a link that lost its href', () => {
    expect(htmlToText('<p>Open <a href="https://pw.example/device/7">the device</a></p>')).toBe('Open the device <https://pw.example/device/7>\n');
    expect(htmlToText('<p><a href="https://pw.example/device/7">https://pw.example/device/7</a></p>')).toBe('https://pw.example/device/7\n');
    expect(htmlToText('<p>Write to <a href="mailto:ops@example.com">ops@example.com</a></p>')).toBe('Write to ops@example.com\n');
    // A link whose address the sanitiser dropped (no public URL, or a hostile value) is just its text.
    expect(htmlToText('<p>Open <a>the device</a> now</p>')).toBe('Open the device now\n');
  });

  it('is text, never markup: what a printer calls itself stays as written', () => {
    expect(htmlToText('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')).toBe('<script>alert(1)</script>\n');
  });

  it('writes a table in aligned columns: each as wide as its widest cell, numbers to the right (issue 54)', () => {
    const html = '<p>To order:</p><table border="1"><tr><th>Part model</th><th>Part</th><th>Count</th></tr>'
      + '<tr><td>TN-910</td><td>Black toner</td><td>12</td></tr><tr><td>CF259A</td><td>Картридж &amp; drum</td><td>3</td></tr><tr><td>—</td><td>Waste box</td><td>100</td></tr></table><p>Thanks</p>';
    expect(htmlToText(html)).toBe([
      'To order:',
      '',
      'Part model  Part             Count',
      'TN-910      Black toner         12',
      'CF259A      Картридж & drum      3',
      '—           Waste box          100',
      '',
      'Thanks',
      '',
    ].join('\n'));
  });

  it('aligns any rows, short ones too, and keeps a table inside a cell on its line', () => {
    // The first row is the header: it does not make a column of numbers a column of text.
    expect(alignColumns([['a', 'bb', 'c'], ['dddd'], ['e', '5 %', '1,5']])).toBe('a      bb    c\ndddd\ne     5 %  1,5');
    expect(alignColumns([['Level', 'Day'], ['9%', '01.12.2026'], ['100%', '']])).toBe('Level         Day\n   9%  01.12.2026\n 100%');
    expect(htmlToText('<table><tr><td>Outer</td><td><table><tr><td>x</td><td>y</td></tr></table></td></tr><tr><td>Next</td><td>z</td></tr></table>')).toBe('Outer  x y\nNext   z\n');
  });
});
