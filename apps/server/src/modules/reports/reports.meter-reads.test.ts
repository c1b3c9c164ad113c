import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { bearer, createUser, testApp } from '../../test/test-app.ts';
import { mailbox, smtpSettingsFor, type Mailbox } from '../../test/mailbox.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';

/**
 * The meter-read report (issue 41) on a generated history: a colour MFP whose board was swapped
 * on 20 October 2026 (total, black and colour back near zero), every other meter counting on.
 * Its figures, the file's headers with the meter codes in both languages and both formats, the
 * meter corrections applied to it and to the counters report (never to the history), and its
 * scheduled delivery through a real SMTP server.
 */
const t = testApp({ publicUrl: 'https://pagewatch.example.com/' });
let mine: number;
let mfp: number;
let box: Mailbox;

type Day = Record<'total' | 'mono' | 'color' | 'a3' | 'a4' | 'a3Bw' | 'a4Bw' | 'a3Color' | 'a4Color' | 'copy' | 'scan' | 'fax' | 'duplex', number>;
const HISTORY: [string, Day][] = [
  ['2026-09-30', { total: 1000, mono: 700, color: 300, a3: 100, a4: 900, a3Bw: 60, a4Bw: 640, a3Color: 40, a4Color: 260, copy: 200, scan: 50, fax: 10, duplex: 400 }],
  ['2026-10-05', { total: 1100, mono: 770, color: 330, a3: 110, a4: 990, a3Bw: 66, a4Bw: 704, a3Color: 44, a4Color: 286, copy: 220, scan: 55, fax: 11, duplex: 440 }],
  ['2026-10-20', { total: 50, mono: 35, color: 15, a3: 120, a4: 1030, a3Bw: 72, a4Bw: 730, a3Color: 48, a4Color: 300, copy: 230, scan: 60, fax: 11, duplex: 460 }],
  // Black plus colour (255) is not the total (250): a data-quality flag.
  ['2026-10-31', { total: 250, mono: 175, color: 80, a3: 130, a4: 1070, a3Bw: 78, a4Bw: 760, a3Color: 52, a4Color: 310, copy: 240, scan: 70, fax: 12, duplex: 480 }],
];
const OCTOBER = 'from=2026-10-01&to=2026-10-31';

const get = (url: string, lang = 'en') => t.app.inject({ url, headers: { ...bearer(t.admin), 'accept-language': lang } });
const correct = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/devices/${mfp}/meter-corrections`, headers: bearer(t.admin), payload: { reason: 'board swap', ...body } });
const rowOf = async (url: string) => ((await get(url)).json() as Record<string, unknown>[]).find((r) => r.serialNumber === 'MR-1')!;
const download = async (format: 'CSV' | 'XLSX', lang: string, filter: Record<string, unknown> = { from: '2026-10-01', to: '2026-10-31' }, headers = 'titles') => {
  const res = await get(`/api/reports/download/5/${format}?filter=${encodeURIComponent(JSON.stringify(filter))}&headers=${headers}`, lang);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res;
};
const csvLines = (body: string) => body.replace(/^\uFEFF/, '').trim().split('\r\n');
/** A CSV line's fields, quoted ones unquoted (`sep`: the language's separator). */
const fields = (line: string, sep: string) => [...line.matchAll(new RegExp(`("(?:[^"]|"")*"|[^${sep}"]*)(?:${sep}|$)`, 'g'))].slice(0, -1).map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"'));
/** A CSV's cell of device MR-1 by its column's header. */
const cells = (lines: string[], sep = ',') => {
  const names = fields(lines[0], sep);
  const row = fields(lines.find((l) => l.includes('MR-1'))!, sep);
  return (name: string) => row[names.indexOf(name)];
};

beforeAll(async () => {
  mine = await addLocation(t.ctx.db, 'MR_MINE');
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code, device_type, color_type)
    VALUES (${mine}, '127.0.0.41', 'MR-1', 'Colour MFP 41', 'MFP', 'COLOR') RETURNING id`);
  mfp = Number(d.id);
  for (const [day, c] of HISTORY) {
    await t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code, total_start, total_count, mono_count, color_count,
      a3_count, a4_count, a3_bw_count, a4_bw_count, a3_color_count, a4_color_count, copy_count, scan_count, fax_count, duplex_count)
      VALUES (${day}::date, ${mfp}, ${mine}, 1, 'OK', ${c.total}, ${c.total}, ${c.mono}, ${c.color}, ${c.a3}, ${c.a4}, ${c.a3Bw}, ${c.a4Bw}, ${c.a3Color}, ${c.a4Color},
        ${c.copy}, ${c.scan}, ${c.fax}, ${c.duplex})`);
  }
  box = await mailbox();
  await smtpSettingsFor(t.ctx.db, box.port);
});
afterAll(() => box.close());

describe('meter reads (issue 41)', () => {
  it('gives each meter\'s first and last read with their days and its forward steps, and the period\'s flags', async () => {
    const r = await rowOf(`/api/reports/meter-reads?${OCTOBER}`);
    expect(r).toMatchObject({
      periodFrom: '2026-10-01', periodTo: '2026-10-31',
      // The first read is the last one before the period, so that last − first is the pages where nothing went back.
      total101First: 1000, total101FirstDate: '2026-09-30', total101Last: 250, total101LastDate: '2026-10-31', total101Pages: 100 + 200,
      monoFirst: 700, monoLast: 175, monoPages: 70 + 140,
      colorFirst: 300, colorLast: 80, colorPages: 30 + 65,
      // 102: total + large, per day (1100, 1210, 170, 380).
      totalLargeTwice102First: 1100, totalLargeTwice102Last: 380, totalLargeTwice102Pages: 110 + 210,
      a3First: 100, a3Last: 130, a3Pages: 30, a4Pages: 170, a3Bw112Pages: 18, a4Bw113Pages: 120, a3Color122Pages: 12, a4Color123Pages: 50,
      copiesPages: 40, scansPages: 20, faxPages: 2, duplexPages: 80, duplexLastDate: '2026-10-31',
      dataQuality: 'BACKWARDS,SPLIT',
    });
  });

  it('writes the file with the meters\' names and codes in the user\'s language (its separator, dates and words), CSV and XLSX', async () => {
    const en = csvLines((await download('CSV', 'en')).body);
    const header = en[0].split(',');
    // The grid's column titles (issue 43), the device's as the devices screens name them.
    expect(header.slice(0, 4)).toEqual(['Location', 'Model', 'Serial number', 'IP']);
    expect(header).toContain('Total (101): first read');
    expect(header).toContain('Total (101): first read date');
    expect(en[0]).toContain('"Total, large as two (102): pages"');
    for (const h of ['Black large (112): last read', 'Black small (113): pages', 'Large colour (122): first read', 'Colour small (123): last read date', 'Black: pages', 'Prints: pages', 'Data quality']) {
      expect(en[0], h).toContain(h);
    }
    const ru = csvLines((await download('CSV', 'ru')).body);
    expect(fields(ru[0], ';').slice(0, 3)).toEqual(['Расположение', 'Модель', 'Серийный номер']);
    for (const h of ['Серийный номер', 'Всего (101): первое показание', 'Всего (101): дата первого показания', 'Ч/б крупный формат (112): страниц', 'Цвет малый формат (123): последнее показание', 'Качество данных']) {
      expect(ru[0], h).toContain(h);
    }
    // Values under their headers: the file's columns in the registry's order, one per header.
    const enCell = cells(en);
    expect([enCell('Total (101): first read'), enCell('Total (101): first read date'), enCell('Total (101): last read'), enCell('Total (101): pages')]).toEqual(['1000', '2026-09-30', '250', '300']);
    expect(enCell('Data quality')).toBe('a meter went backwards; black + colour ≠ total');
    const ruCell = cells(ru, ';');
    expect(ruCell('Качество данных')).toBe('счётчик уменьшился; ч/б + цвет ≠ всего');
    expect([ruCell('Всего (101): первое показание'), ruCell('Всего (101): дата первого показания'), ruCell('Период по')]).toEqual(['1000', '30.09.2026', '31.10.2026']);

    // For programs: the attachment names, each billed meter's with its code, and the flags as codes; the language's separator still.
    const codes = csvLines((await download('CSV', 'ru', undefined, 'codes')).body);
    for (const h of ['serialNumber', 'total101First', 'total101FirstDate', 'totalLargeTwice102Pages', 'a3Bw112Pages', 'a4Bw113Last', 'a3Color122First', 'a4Color123LastDate', 'monoPages', 'dataQuality']) {
      expect(fields(codes[0], ';'), h).toContain(h);
    }
    const codeCell = cells(codes, ';');
    expect([codeCell('total101First'), codeCell('total101FirstDate'), codeCell('dataQuality')]).toEqual(['1000', '30.09.2026', 'BACKWARDS,SPLIT']);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download('XLSX', 'ru')).rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const heads = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    const at = (h: string) => row[heads.indexOf(h)];
    expect(sheet.name).toBe('Показания счётчиков');
    expect(at('Всего (101): первое показание')).toBe(1000);
    expect(at('Всего (101): дата первого показания')).toEqual(new Date('2026-09-30T00:00:00Z'));
    expect(at('Цвет крупный формат (122): страниц')).toBe(12);
    expect(at('Серийный номер')).toBe('MR-1');
  });

  it('applies meter corrections from their day on to the meter reads and the counters report, never to the history', async () => {
    const counters = `/api/reports/device-counters?${OCTOBER}`;
    // A whole month: read from the months rolled up while no correction is in force.
    expect(await rowOf(counters)).toMatchObject({ totalEnd: 250, totalDiff: 300, bwEnd: 175, bwDiff: 210, colorDiff: 95, reason: 'bw,color,total' });

    // The old board's last figures, carried onto the new one from the day of the swap.
    expect((await correct({ meter: 'total', fromDate: '2026-10-20', offset: 1100 })).statusCode).toBe(200);
    expect((await correct({ meter: 'mono', fromDate: '2026-10-20', offset: 770 })).statusCode).toBe(200);
    // After the period: not applied to October. Withdrawn: not applied at all.
    expect((await correct({ meter: 'scans', fromDate: '2026-11-10', offset: 5 })).statusCode).toBe(200);
    const wrong = (await correct({ meter: 'color', fromDate: '2026-10-20', offset: 999 })).json() as { id: number; meter: string }[];
    const wrongId = wrong.find((c) => c.meter === 'color')!.id;
    const withdrawn = await t.app.inject({ method: 'POST', url: `/api/devices/${mfp}/meter-corrections/${wrongId}/withdraw`, headers: bearer(t.admin), payload: { reason: 'wrong meter' } });
    expect(withdrawn.statusCode).toBe(200);

    expect(await rowOf(counters)).toMatchObject({ totalStart: 1000, totalEnd: 1350, totalDiff: 100 + 50 + 200, bwEnd: 945, bwDiff: 70 + 35 + 140, colorEnd: 80, colorDiff: 95, reason: 'color' });
    const r = await rowOf(`/api/reports/meter-reads?${OCTOBER}`);
    expect(r).toMatchObject({
      total101First: 1000, total101Last: 1350, total101Pages: 350, monoLast: 945, monoPages: 245, colorPages: 95, scansLast: 70, scansPages: 20,
      // 102 and prints follow the corrected total: 1100, 1210, 1270, 1480; 790, 869, 909, 1098.
      totalLargeTwice102Last: 1480, totalLargeTwice102Pages: 380, printsFirst: 790, printsLast: 1098, printsPages: 79 + 40 + 189,
      dataQuality: 'BACKWARDS,SPLIT,CORRECTED',
    });
    // The chart sums the same corrected steps.
    const months = (await get(`/api/reports/device-counters/months?${OCTOBER}`)).json() as { location: string; bw: number }[];
    expect(months.find((m) => m.location === 'Location MR_MINE')?.bw).toBe(245);

    // The history is as read.
    const days = await sqlRows<{ total: number; mono: number }>(t.ctx.db, sql`SELECT total_count AS total, mono_count AS mono FROM dm_device_days WHERE device_id = ${mfp} ORDER BY fact_date`);
    expect(days.map((d) => [Number(d.total), Number(d.mono)])).toEqual(HISTORY.map(([, c]) => [c.total, c.mono]));
    // The card's last day is as read too: 250 − 50 pages, not the corrected 1350 − 1150.
    expect((await get(`/api/devices/${mfp}`)).json().dayCounters).toMatchObject({ factDate: '2026-10-31', total: 200, mono: 140 });
  });

  it('goes out on its schedule as an e-mail attachment, CSV and XLSX', async () => {
    const user = await createUser(t.app, t.admin, { login: 'mr_ann', role: 'OPERATOR', locationIds: [mine] });
    const res = await t.app.inject({
      method: 'POST', url: '/api/notifications', headers: bearer(t.admin),
      payload: {
        name: 'Meter reads', active: true, subject: 'Meter reads', body: '<p>Attached</p>', notificationType: { code: 'REPORT' }, report: { code: 'METER_READS' },
        fileExtensionCode: 'CSV', schedule: '0 0 10 ? * * *', attachment: 'serialNumber;total101First;total101FirstDate;total101Last;total101Pages;a3Bw112Pages;dataQuality;',
        locations: [{ id: mine }], subscribers: [{ id: user }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: number }).id;
    const due = (format: string) => t.ctx.db.execute(sql`UPDATE notifications SET file_extension = ${format}, last_run_at = '2026-10-01T00:00:00Z', next_run_at = now() - interval '1 second' WHERE id = ${id}`);
    const send = async () => {
      await t.ctx.notifier.dispatcher.dispatch();
      await t.ctx.notifier.sender.sendDue();
    };
    const attachment = (mail: string, ext: string) =>
      Buffer.from(mail.split(new RegExp(`filename=meter-reads-[\\d-]+\\.${ext}"?\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n`))[1].split('\r\n--')[0].replace(/\r\n/g, ''), 'base64');

    await due('CSV');
    await send();
    expect(box.received).toHaveLength(1);
    const lines = csvLines(attachment(box.received[0], 'csv').toString());
    expect(lines[0]).toBe('Serial number,Total (101): first read,Total (101): first read date,Total (101): last read,Total (101): pages,Black large (112): pages,Data quality');
    expect(lines[1]).toBe('MR-1,1000,2026-09-30,1350,350,18,a meter went backwards; black + colour ≠ total; corrected');

    await due('XLSX');
    await send();
    expect(box.received).toHaveLength(2);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(attachment(box.received[1], 'xlsx') as unknown as ArrayBuffer);
    expect((book.worksheets[0].getRow(1).values as unknown[]).slice(1, 3)).toEqual(['Serial number', 'Total (101): first read']);
    expect((book.worksheets[0].getRow(2).values as unknown[]).slice(1, 6)).toEqual(['MR-1', 1000, new Date('2026-09-30T00:00:00Z'), 1350, 350]);
  });

  it('lists the plausibility check\'s flags of the period\'s readings, each fault once, in words in the file', async () => {
    const flag = (at: string, kind: string) =>
      t.ctx.db.execute(sql`INSERT INTO meter_flags (device_id, at, kind, meter, previous_value, value) VALUES (${mfp}, ${at}::timestamptz, ${kind}, 'total', 1100, 1000)`);
    const early = '/api/reports/meter-reads?from=2026-10-01&to=2026-10-10';
    // 1 to 10 October: the days step forward and add up, nothing flagged.
    expect((await rowOf(early)).dataQuality).toBeNull();
    await flag('2026-10-07T10:00:00Z', 'BACKWARDS');
    await flag('2026-10-08T23:59:00Z', 'JUMP');
    // On the period's last day (UTC) it counts, on the day after it does not.
    await flag('2026-10-10T23:59:59Z', 'JUMP');
    await flag('2026-10-11T00:00:00Z', 'SPLIT');
    expect((await rowOf(early)).dataQuality).toBe('JUMP,BACKWARDS');
    // October: the days went back and the readings were flagged going back: one BACKWARDS.
    expect((await rowOf(`/api/reports/meter-reads?${OCTOBER}`)).dataQuality).toBe('JUMP,BACKWARDS,SPLIT,CORRECTED');
    const ru = csvLines((await download('CSV', 'ru', { from: '2026-10-01', to: '2026-10-10' })).body);
    expect(cells(ru, ';')('Качество данных')).toBe('скачок больше возможного при номинальной скорости; счётчик уменьшился');
    const en = csvLines((await download('CSV', 'en', { from: '2026-10-01', to: '2026-10-10' })).body);
    expect(cells(en)('Data quality')).toBe('a jump beyond the rated speed; a meter went backwards');
  });

  it('says which total the device is billed on, the maker\'s own or prtMarkerLifeCount, with the Printer-MIB\'s beside the maker\'s (issue 57)', async () => {
    const url = `/api/reports/meter-reads?${OCTOBER}`;
    // The generated device has neither figure apart, as an older agent's device.
    expect(await rowOf(url)).toMatchObject({ billedTotal: null, otherTotal: null });
    await t.ctx.db.execute(sql`UPDATE devices SET vendor_total_count = 250, marker_total_count = 262 WHERE id = ${mfp}`);
    expect(await rowOf(url)).toMatchObject({ billedTotal: 'VENDOR', otherTotal: 262 });
    const en = cells(csvLines((await download('CSV', 'en')).body));
    expect([en('Billed on'), en('Printer-MIB total now')]).toEqual(['the maker’s own total', '262']);
    const ru = cells(csvLines((await download('CSV', 'ru')).body), ';');
    expect([ru('Счёт по'), ru('Итог по Printer-MIB сейчас')]).toEqual(['собственный итог производителя', '262']);
    const codes = cells(csvLines((await download('CSV', 'en', undefined, 'codes')).body));
    expect([codes('billedTotal'), codes('otherTotal')]).toEqual(['VENDOR', '262']);

    // No total of its own: billed on the Printer-MIB's, nothing beside it.
    await t.ctx.db.execute(sql`UPDATE devices SET vendor_total_count = NULL WHERE id = ${mfp}`);
    expect(await rowOf(url)).toMatchObject({ billedTotal: 'PRINTER_MIB', otherTotal: null });
    expect(cells(csvLines((await download('CSV', 'en')).body))('Billed on')).toBe('Printer-MIB total (prtMarkerLifeCount)');
  });
});
