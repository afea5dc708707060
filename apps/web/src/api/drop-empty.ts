/** SPEC §5: empty fields are dropped; zero and false are kept. */
export const dropEmpty = <T>(value: T): T => {
  if (Array.isArray(value)) return value.map(dropEmpty) as T;
  if (value && typeof value === 'object' && !(value instanceof Blob) && !(value instanceof FormData)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || v === null || v === '') continue;
      out[k] = dropEmpty(v);
    }
    return out as T;
  }
  return value;
};
