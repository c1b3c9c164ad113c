import { describe, expect, it } from 'vitest';
import { cleanBody, deviceLink, fillHtml } from './render.ts';
import { htmlToText } from '../../lib/mail-text.ts';

// Bodies are stored cleaned; what a printer says of itself (host name, IP, location) arrives later.
const body = (html: string) => cleanBody(html);
const hrefs = (html: string) => [...html.matchAll(/<a\b[^>]*\shref="([^"]*)"/g)].map((m) => m[1]);

describe('filling a message body', () => {
  it('keeps no link a printer turns into javascript: or data:, wherever its value lands in the href', () => {
    const template = body('<p><a href="{device.hostname}">host</a> <a href="{device.ip}">ip</a> <a href="{device.snmpLocation}">where</a> <a href="{device.location}x">loc</a></p>');
    for (const evil of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', '\tjavascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', '//evil.example/x']) {
      const html = fillHtml(template, { hostname: evil, ip: evil, snmpLocation: evil, location: evil });
      expect(hrefs(html), evil).toEqual([]);
      expect(html).toContain('>host</a>');
      expect(html).not.toMatch(/<script/i);
    }
  });

  it('keeps http, https and mailto links, the console link among them', () => {
    const template = body('<p><a href="{device.interfaceLink}">open</a> <a href="http://{device.ip}/status">web</a> <a href="mailto:desk@example.com?subject={device.serialNumber}">mail</a></p>');
    const html = fillHtml(template, { interfaceLink: 'https://pagewatch.example.com/device/7', ip: '10.0.0.7', serialNumber: 'SN7' });
    expect(hrefs(html)).toEqual(['https://pagewatch.example.com/device/7', 'http://10.0.0.7/status', 'mailto:desk@example.com?subject=SN7']);
  });

  it('lets no value leave its attribute or become markup in text', () => {
    const template = body('<p><a href="https://example.com/?h={device.hostname}">{device.hostname}</a> at {device.location}</p>');
    const evil = '"><img src=x onerror=alert(1)><a href="javascript:alert(2)" x=\'';
    const html = fillHtml(template, { hostname: evil, location: '<b onclick="alert(3)">desk</b>' });
    // Every tag is one the template wrote ('<' in a value is always escaped).
    expect(html.match(/<[^>]*>/g)?.map((tag) => tag.split(/[\s>]/)[0])).toEqual(['<p', '<a', '</a', '</p']);
    // The whole value stays in the one href, escaped, and is shown as text.
    expect(hrefs(html)).toEqual(['https://example.com/?h=&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;a href=&quot;javascript:alert(2)&quot; x=\'']);
    expect(html).toContain('&lt;b onclick="alert(3)"&gt;desk&lt;/b&gt;');
  });
});

describe('a mail without the console address (no PAGEWATCH_PUBLIC_URL)', () => {
  it('holds no empty link: the link to the device is its text alone, in the HTML and the text part', () => {
    const html = fillHtml('<p>Open <a href="{device.interfaceLink}">the device</a>: {device.interfaceLink}</p>', { interfaceLink: deviceLink(null, 5) });
    expect(html).toBe('<p>Open <a>the device</a>: </p>');
    expect(html).not.toMatch(/href/);
    expect(htmlToText(html)).toBe('Open the device:\n');
  });
});
