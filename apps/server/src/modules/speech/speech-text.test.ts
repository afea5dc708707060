import { describe, expect, it } from 'vitest';
import { digitsWords, integerWords, SPEECH_TEXT_MAX, speechText } from './speech-text';

describe('speech text', () => {
  it('reads quantities in words', () => {
    expect(integerWords(0)).toBe('零');
    expect(integerWords(10)).toBe('十');
    expect(integerWords(15)).toBe('十五');
    expect(integerWords(105)).toBe('一百零五');
    expect(integerWords(1200)).toBe('一千二百');
    expect(integerWords(1005)).toBe('一千零五');
    expect(integerWords(9999)).toBe('九千九百九十九');
    expect(integerWords(10_000)).toBe('一万');
    expect(integerWords(10_500)).toBe('一万零五百');
    expect(integerWords(120_000_000)).toBe('一亿二千万');
  });

  it('reads phone numbers and codes digit by digit with 幺, quantities as numbers', () => {
    expect(speechText('请拨打13812345678')).toBe('请拨打幺三八幺二三四五六七八');
    expect(speechText('验证码 0571')).toBe('验证码 零五七幺');
    // the 4/5-digit edge: 4 digits are a quantity, 5 are a code
    expect(speechText('共9999元')).toBe('共九千九百九十九元');
    expect(speechText('编号10086')).toBe('编号幺零零八六');
    expect(digitsWords('110')).toBe('幺幺零');
  });

  it('reads decimals, percentages and full-width digits', () => {
    expect(speechText('年化3.5%')).toBe('年化百分之三点五');
    expect(speechText('优惠20%')).toBe('优惠百分之二十');
    expect(speechText('价格１２元')).toBe('价格十二元');
  });

  it('drops markup, emoji and control characters and folds white space', () => {
    expect(speechText('  您好<br/>，\u200b张先生😀\n\t欢迎  ')).toBe('您好 ，张先生 欢迎');
  });

  it('refuses text with nothing to say, and text over the limit (at the limit it passes)', () => {
    expect(() => speechText(' 😀 <b></b> ，。')).toThrow(expect.objectContaining({ reason: 'empty', message: '播报内容为空' }));
    expect(speechText('好'.repeat(SPEECH_TEXT_MAX))).toHaveLength(SPEECH_TEXT_MAX);
    expect(() => speechText('好'.repeat(SPEECH_TEXT_MAX + 1))).toThrow(expect.objectContaining({ reason: 'too-long' }));
    // numbers count as the words they become
    expect(() => speechText(`${'好'.repeat(SPEECH_TEXT_MAX - 2)}99`)).toThrow(expect.objectContaining({ reason: 'too-long' }));
  });
});
