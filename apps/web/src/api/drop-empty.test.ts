import { describe, expect, it } from 'vitest';
import { dropEmpty } from './drop-empty';

describe('dropEmpty (SPEC §5 request building)', () => {
  it('drops undefined, null and empty strings but keeps zero and false', () => {
    expect(dropEmpty({ a: '', b: undefined, c: null, d: 0, e: false, f: 'x' })).toEqual({ d: 0, e: false, f: 'x' });
  });
  it('cleans nested objects and arrays of objects', () => {
    expect(dropEmpty({ list: [{ a: '', b: 1 }], inner: { c: '', d: 'y' } })).toEqual({ list: [{ b: 1 }], inner: { d: 'y' } });
  });
});
