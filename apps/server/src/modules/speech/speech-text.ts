// Text as the synthesizer should read it: control characters and markup gone, white space folded,
// a length limit, and numbers in Chinese words, because espeak-ng reads a long digit run as one
// huge number (13812345678 → 一百三十八亿…) and a cloud voice may read it in English.
//
// Rules (common for Chinese phone prompts): a run of 5 or more digits, or one starting with 0, is
// read digit by digit with 1 as 幺 (phone numbers, order numbers, codes); a shorter run is a
// quantity (1200 → 一千二百, 10 → 十); a decimal reads 点 (3.5 → 三点五); a trailing % reads 百分之.

export const SPEECH_TEXT_MAX = 600;

const DIGIT = '零一二三四五六七八九';
const PHONE_DIGIT = '零幺二三四五六七八九';

export class SpeechTextError extends Error {
  constructor(
    readonly reason: 'empty' | 'too-long',
    message: string,
  ) {
    super(message);
  }
}

/** 0–9999 in words: 1200 → 一千二百, 1005 → 一千零五, 10 → 十, 15 → 十五. */
const underTenThousand = (n: number, isLeading = true): string => {
  if (n === 0) return '';
  const units = ['千', '百', '十', ''];
  const ds = String(n).padStart(4, '0').split('').map(Number);
  let out = '';
  let zero = false;
  let started = false;
  ds.forEach((d, i) => {
    if (d === 0) {
      if (started) zero = true;
      return;
    }
    if (zero) out += '零';
    zero = false;
    // 十五, not 一十五, when the number starts at the tens
    out += !started && isLeading && i === 2 && d === 1 ? '' : DIGIT[d];
    out += units[i];
    started = true;
  });
  return out;
};

/** An integer below 10^12 in words (万, 亿 groups). */
export const integerWords = (n: number): string => {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(String(n));
  if (n === 0) return '零';
  const groups: number[] = [];
  for (let x = n; x > 0; x = Math.floor(x / 10_000)) groups.push(x % 10_000);
  const names = ['', '万', '亿'];
  let out = '';
  let needsZero = false;
  for (let g = groups.length - 1; g >= 0; g--) {
    const v = groups[g];
    if (v === 0) {
      if (out) needsZero = true;
      continue;
    }
    if (out && (needsZero || v < 1000)) out += '零';
    needsZero = false;
    out += underTenThousand(v, out === '') + names[g];
  }
  return out;
};

/** Digit by digit, 1 as 幺 (how Chinese speakers read phone numbers). */
export const digitsWords = (s: string) =>
  s
    .split('')
    .map((c) => PHONE_DIGIT[Number(c)])
    .join('');

const numberWords = (int: string, frac: string | undefined, percent: boolean): string => {
  let words: string;
  if (!frac && (int.length >= 5 || (int.length > 1 && int.startsWith('0')))) {
    words = digitsWords(int);
  } else {
    words = int.length > 12 ? digitsWords(int) : integerWords(Number(int));
    if (frac)
      words += `点${frac
        .split('')
        .map((c) => DIGIT[Number(c)])
        .join('')}`;
  }
  return percent ? `百分之${words}` : words;
};

/** Full-width digits and signs as ASCII, so one rule reads both. */
const toHalfWidth = (s: string) => s.replace(/[０-９．％]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));

// control characters, emoji and other pictographs are not spoken; zero-width (format) characters vanish
const UNSPEAKABLE = /[\p{Cc}\p{Extended_Pictographic}]/gu;
const INVISIBLE = /\p{Cf}/gu;

/**
 * The text the synthesizer gets: cleaned, numbers in words, at most `max` characters
 * (SpeechTextError when nothing speakable is left or when it is longer).
 */
export const speechText = (raw: string, max = SPEECH_TEXT_MAX): string => {
  const cleaned = toHalfWidth(raw)
    .replace(/<[^>]{0,200}>/g, ' ')
    .replace(INVISIBLE, '')
    .replace(UNSPEAKABLE, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!/[\p{L}\p{N}]/u.test(cleaned)) throw new SpeechTextError('empty', '播报内容为空');
  const spoken = cleaned.replace(/(\d+)(?:\.(\d+))?(%)?/g, (_m, int: string, frac: string | undefined, pct: string | undefined) =>
    numberWords(int, frac, Boolean(pct)),
  );
  if (Array.from(spoken).length > max) throw new SpeechTextError('too-long', `播报内容过长（最多${max}个字）`);
  return spoken;
};
