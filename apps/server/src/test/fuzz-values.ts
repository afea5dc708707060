/** The bad values the fuzzer sends (issue 11 hole 7). */

/** Built as text: JSON.stringify itself overflows on 10,000 levels. */
export const deepJson = (levels: number) => `${'{"a":['.repeat(levels)}1${']}'.repeat(levels)}`;
export const deepControlsJson = (levels: number) =>
  `{"name":"x","templateControls":[${'{"cbTacid":1,"dmValue":[],"children":['.repeat(levels)}{"cbTacid":1}${']}'.repeat(levels)}]}`;

export type FuzzLevel = 'full' | 'quick';

/** Values sent in place of one field of a JSON body. */
export const bodyValues = (level: FuzzLevel): unknown[] => {
  const quick: unknown[] = ['a\u0000b', '\ud800', 2 ** 31, { a: 1 }];
  if (level === 'quick') return quick;
  return [
    ...quick,
    2 ** 53,
    1.5,
    -(2 ** 31) - 1,
    [{}],
    '\u0000',
    'x\udfff',
    '\udc00\ud800',
    2 ** 31 - 1,
    2 ** 32,
    -1,
    0,
    1e308,
    -1e308,
    '2147483648',
    '9007199254740993',
    '1e400',
    '',
    ' ',
    'x'.repeat(100_000),
    '中'.repeat(10_001),
    '%',
    "'; drop table customers; --",
    '2026-02-30 25:61:61',
    '0000-00-00',
    [],
    [1, 2, 3],
    ['\u0000'],
    [2 ** 31],
    Array.from({ length: 2000 }, (_, i) => i + 1),
    {},
    null,
    true,
    false,
  ];
};

/** Values sent in place of one query-string or path parameter (already URL-encoded). */
export const queryValues = (level: FuzzLevel): string[] => {
  const quick = ['a%00b', '%ED%A0%80', '2147483648'];
  if (level === 'quick') return quick;
  return [
    ...quick,
    '1.5',
    '%00',
    '9007199254740992',
    '-1',
    '%ED%B0%80x',
    '-2147483649',
    '1e400',
    'NaN',
    'abc',
    '',
    '%25',
    'x'.repeat(10_000),
    '0x10',
    '%C0%AF',
  ];
};
