import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export type NormalisedPhone = { phone: string; ext: string };

// DATA-NOTES: libphonenumber knows mobiles, landlines and 400/800; short service numbers
// (95588, 10086, 12345) and Chinese extension markers (转, 分机) are ours to handle.
const SERVICE_NUMBER = /^(?:95\d{3,6}|96\d{3,6}|1\d{4})$/;
const EXTENSION = /(?:转|分机|ext\.?|x|#)\s*(\d{1,6})$/i;

/**
 * Normalises a Chinese phone number to its dialable national form ('13812345678',
 * '01012345678', '4001234567', '95588'), or returns null when it is not a real number.
 */
export const normalisePhone = (raw: string): NormalisedPhone | null => {
  let text = raw.trim().replace(/[\s\u3000()（）]/g, '');
  let ext = '';
  const extMatch = EXTENSION.exec(text);
  if (extMatch) {
    ext = extMatch[1];
    text = text.slice(0, extMatch.index).replace(/[-—]$/, '');
  }
  text = text.replace(/^\+?0*86(?=1\d{10}$)/, '').replace(/^0086/, '+86');
  if (SERVICE_NUMBER.test(text)) return { phone: text, ext };
  const parsed = parsePhoneNumberFromString(text, 'CN');
  if (!parsed?.isValid() || parsed.country !== 'CN') return null;
  return { phone: parsed.formatNational().replace(/\D/g, ''), ext };
};

/** '138****5678' style mask (SPEC §6 phone masking). */
export const maskPhone = (phone: string): string => {
  if (phone.length >= 7) return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
  if (phone.length >= 3) return `${phone.slice(0, 1)}${'*'.repeat(phone.length - 2)}${phone.slice(-1)}`;
  return '*'.repeat(phone.length);
};
