import { textWidth } from './font';

/** Characters that may not start a line (closing punctuation): they hang at the end of the previous one. */
const NO_LINE_START = new Set([...'，。、；：？！）》」』】〕〗〉”’%％…—·,.;:?!)]}']);
/** Characters that may not end a line (opening brackets): they move to the next one. */
const NO_LINE_END = new Set([...'（《「『【〔〖〈“‘([{¥￥']);

/** Units a line may break between: one CJK character, or a run of Latin letters/digits with its spaces. */
const units = (text: string): string[] => {
  const out: string[] = [];
  const re = /[A-Za-z0-9@#&*+\-_=/\\|<>'"$.,:;!?%~^`]+ *| +|./gu;
  for (const m of text.matchAll(re)) out.push(m[0]);
  return out;
};

/** Splits a word wider than the whole line into pieces that fit. */
const splitLong = (unit: string, size: number, width: number): string[] => {
  const pieces: string[] = [];
  let cur = '';
  for (const ch of unit) {
    if (cur && textWidth(cur + ch, size) > width) {
      pieces.push(cur);
      cur = '';
    }
    cur += ch;
  }
  if (cur) pieces.push(cur);
  return pieces;
};

/**
 * Breaks text into lines of at most `width` points (Chinese rules: break between any two characters,
 * closing punctuation hangs rather than starting a line, opening brackets never end one). `\n` forces
 * a break. `firstIndent` narrows the first line (两字缩进).
 */
export const wrapText = (text: string, size: number, width: number, firstIndent = 0): string[] => {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    let lineWidth = 0;
    const avail = () => width - (lines.length === 0 ? firstIndent : 0);
    const queue = units(paragraph);
    while (queue.length > 0) {
      const unit = queue.shift() as string;
      const w = textWidth(unit, size);
      if (lineWidth + textWidth(unit.trimEnd(), size) <= avail() || line === '') {
        if (line === '' && w > avail()) {
          const [first, ...rest] = splitLong(unit, size, avail());
          queue.unshift(...rest);
          line = first;
          lineWidth = textWidth(first, size);
          continue;
        }
        line += unit;
        lineWidth += w;
        continue;
      }
      if (NO_LINE_START.has(unit)) {
        line += unit; // hangs past the margin by one punctuation mark
        lineWidth += w;
        continue;
      }
      // an opening bracket at the end moves down with the next unit
      let carry = '';
      const last = [...line].at(-1) ?? '';
      if (NO_LINE_END.has(last) && [...line].length > 1) {
        carry = last;
        line = line.slice(0, -last.length);
      }
      lines.push(line.trimEnd());
      line = carry;
      lineWidth = textWidth(carry, size);
      queue.unshift(unit.trimStart() === '' ? '' : unit);
      if (queue[0] === '') queue.shift();
    }
    lines.push(line.trimEnd());
  }
  return lines;
};
