import { describe, expect, it } from 'vitest';
import { maskPhone, normalisePhone } from './phone';

describe('normalisePhone', () => {
  it.each([
    ['13812345678', '13812345678'],
    ['138 1234 5678', '13812345678'],
    ['+86 138-1234-5678', '13812345678'],
    ['010-12345678', '01012345678'],
    ['(0755)26681234', '075526681234'],
    ['400-810-8888', '4008108888'],
    ['95588', '95588'],
    ['10086', '10086'],
  ])('accepts %s as %s', (raw, phone) => {
    expect(normalisePhone(raw)?.phone).toBe(phone);
  });

  it('keeps a Chinese extension apart', () => {
    expect(normalisePhone('010-12345678转8001')).toEqual({ phone: '01012345678', ext: '8001' });
  });

  it.each(['12012345678', '010-1234567', '1381234567', 'abc', '', '0755-12'])('rejects %s', (raw) => {
    expect(normalisePhone(raw)).toBeNull();
  });
});

describe('maskPhone', () => {
  it('hides the middle digits', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone('95588')).toBe('9***8');
  });
});
