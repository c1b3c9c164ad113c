import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from './models-pack.loader.ts';

const registry = createDefaultRegistry();
const E = '1.3.6.1.4.1.';

// Devices the corpus does not have: the profiles must recognise them by enterprise and text.
describe('vendor recognition beyond the corpus', () => {
  it.each([
    ['ECOSYS M2540dn', `${E}1347.41`, 'Kyocera'],
    ['KYOCERA Document Solutions Printing System', `${E}1347.41`, 'Kyocera'],
    ['UTAX P-4020DN', `${E}1347.41`, 'UTAX'],
    ['TA Triumph-Adler P-C2665i MFP', `${E}1347.41`, 'TA Triumph-Adler'],
    ['Olivetti d-Copia 4023MF', `${E}1347.41`, 'Olivetti'],
    ['Lexmark MX521ade version MXLSG.052.025 kernel 4.11.12', `${E}641.2.1.2.1`, 'Lexmark'],
    ['Lexmark CS421dn', null, 'Lexmark'],
    ['', `${E}641.1.1`, 'Lexmark'],
    ['TOSHIBA e-STUDIO5015AC', `${E}1129.2.3.72.1`, 'Toshiba TEC'],
    ['Xerox WorkCentre 7845 v1 Multifunction System', `${E}253.8.62.1.20.4.1.1.1`, 'Xerox'],
    ['Xerox VersaLink C405; SS 1.2', null, 'Xerox'],
    ['SAVIN MP C4504 1.00 / SAVIN Network Printer C model', `${E}367.1.1`, 'Savin'],
    ['infotec MP 2554 1.0 / infotec Network Printer C model', `${E}367.1.1`, 'Infotec'],
    ['', `${E}367.1.1`, 'Ricoh'],
    ['Pantum P3300DW Series', `${E}40093.1.1.1`, 'Pantum'],
    ['HP LaserJet Pro M404dn', `${E}11.2.3.9.1`, 'HP'],
    ['Brother NC-8300h, Firmware Ver.1.09', `${E}2435.2.3.9.1`, 'Brother'],
    ['Canon MF741C/743C /P', `${E}1602.4.7`, 'Canon'],
    ['EPSON Built-in', `${E}1248.1.1.2.1.3.5`, 'Epson'],
    ['SHARP BP-50C26', `${E}2385.3.1.150`, 'Sharp'],
    ['KONICA MINOLTA bizhub C300i', `${E}18334.1.1.1.2.1.84.1.1`, 'Konica Minolta'],
    ['Develop ineo+ 300i', `${E}18334.1.1.1.2.1.84.1.1`, 'Develop'],
    ['OKI OkiLAN 8600e Rev.01.01: Attached to C650 Rev.A1.10', `${E}2001.1.1.1.1`, 'OKI'],
    ['Dell H625cdw Color MFP', `${E}674.10898.100.2.1`, 'Dell'],
    ['FUJIFILM Apeos 2560', `${E}297.1.11.93.2.1.1`, 'FUJIFILM'],
    ['FUJI XEROX DocuCentre-VII C2273', `${E}297.1.11.93.1.40.1`, 'Fuji Xerox'],
    ['Zebra ZT410', `${E}10642.1.1`, 'Zebra'],
    ['TSC TE210', `${E}51966.2.1`, 'TSC'],
    ['Samsung M332x 382x 402x Series; V3.00', `${E}236.11.5.1`, 'Samsung'],
  ])('%s (%s) is %s', (descr, oid, vendor) => {
    const m = registry.match(oid, descr);
    expect(m.matched).toBe(true);
    expect(m.profile.vendor).toBe(vendor);
  });

  // Without a sysDescr the enterprise number is all there is: it names the vendor wherever the
  // pack knows that vendor, also by its sysObjectID prefixes alone (HP, Dell, Samsung).
  it.each([
    [`${E}11.2.3.7.11.76`, 'HP'],
    [`${E}11.1`, 'HP'],
    [`${E}674.10898.100.2.1`, 'Dell'],
    [`${E}236.11.5.1`, 'Samsung'],
    [`${E}1347.43.1`, 'Kyocera'],
    [`${E}367.1.2`, 'Ricoh'],
  ])('with no sysDescr, %s is %s', (oid, vendor) => {
    for (const descr of [null, '', '   ']) {
      const m = registry.match(oid, descr);
      expect(m.matched).toBe(true);
      expect(m.profile.vendor).toBe(vendor);
    }
  });

  it.each([
    ['ProCurve J9085A Switch 2610-24', `${E}11.2.3.7.11.76`],
    ['Linux server 6.1.0', '1.3.6.1.4.1.8072.3.2.10'],
    ['Dell PowerEdge iDRAC', `${E}674.10892.5`],
  ])('does not take %s for a printer', (descr, oid) => {
    const m = registry.match(oid, descr);
    expect(m.matched).toBe(false);
    expect(m.profile.vendor).toBeNull();
  });

  it('lets OEM brands inherit the maker\'s OIDs and quirks', () => {
    const lanier = registry.profile('lanier');
    expect(lanier.serialNumber.map((s) => s.oid)).toContain(`${E}367.3.2.1.2.1.4.0`);
    expect(lanier.levelCodes).toEqual([{ level: -100, percent: 0, state: 'LOW' }]);
    expect(registry.profile('utax').model[0]?.oid).toBe(`${E}1347.43.5.1.1.1.1`);
  });
});
