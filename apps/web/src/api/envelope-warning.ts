/**
 * SPEC §8 "some calls: when data.code is 1, data.msg is a warning" (the contract PDF upload among
 * them): the answer's data says {code: 1, msg}, a soft refusal shown as a warning, not an error.
 * Returns that message, or null for any other data.
 */
export const warningOf = (data: unknown): string | null => {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  const d = data as { code?: unknown; msg?: unknown };
  return d.code === 1 && typeof d.msg === 'string' && d.msg.trim() !== '' ? d.msg : null;
};
