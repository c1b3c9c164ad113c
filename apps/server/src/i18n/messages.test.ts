import { describe, expect, it } from 'vitest';
import { SHARED_MESSAGES } from '@pagewatch/contracts/messages';
import { hasMessage, translate } from './messages.ts';

describe('server messages (i18next)', () => {
  it('say a field error in the words of the console, from the catalogue both share', () => {
    for (const lang of ['en', 'ru'] as const) {
      for (const [key, text] of Object.entries(SHARED_MESSAGES[lang].general)) {
        if (!text.includes('{{')) expect(translate(lang, `general.${key}`)).toBe(text);
      }
    }
    expect(translate('ru', 'general.tooLong', { maximum: 5 })).toBe('Не больше 5');
  });

  it('translate nested messages with their parent, fall back to English, and keep a missing value visible', () => {
    expect(translate('ru', 'errors.NOT_READY', { reason: { key: 'errors.NOT_FOUND' } })).toBe('Сервер не готов: Не найдено');
    expect(translate('en', 'errors.TOO_MANY_ATTEMPTS')).toBe('Too many failed sign-ins; try again in {{seconds}} seconds');
    expect(translate('ru', 'no.such.key')).toBe('no.such.key');
    expect(hasMessage('errors.NOT_FOUND')).toBe(true);
    expect(hasMessage('no.such.key')).toBe(false);
  });

  it('never reads a value as a reference to another message', () => {
    expect(translate('en', 'errors.MAIL_FAILED', { reason: '$t(errors.INTERNAL) <b>' })).toBe('The e-mail could not be sent: $t(errors.INTERNAL) <b>');
  });
});
