/** The contract template body: text with fields written as {{字段}} (what the editor inserts and the preview fills). */

/** SPEC §9: A4 is 595.28 × 841.89 pt; margin and body font as the server's PDF (pt). */
export const A4 = { width: 595.28, height: 841.89, margin: 56.7, fontSize: 10.5 } as const;

export type BodyPart = { kind: 'text'; text: string } | { kind: 'field'; key: string };

const FIELD = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** The text and field parts of one line, in order. */
export const splitBody = (line: string): BodyPart[] => {
  const parts: BodyPart[] = [];
  let at = 0;
  for (const m of line.matchAll(FIELD)) {
    if (m.index > at) parts.push({ kind: 'text', text: line.slice(at, m.index) });
    parts.push({ kind: 'field', key: m[1] as string });
    at = m.index + m[0].length;
  }
  if (at < line.length || parts.length === 0) parts.push({ kind: 'text', text: line.slice(at) });
  return parts;
};

/** The field keys a body uses, each once. */
export const fieldsOf = (body: string): string[] => [
  ...new Set(
    body
      .split('\n')
      .flatMap(splitBody)
      .flatMap((p) => (p.kind === 'field' ? [p.key] : [])),
  ),
];

/** The body with `token` put in place of the selection [start, end). */
export const insertAt = (body: string, token: string, start: number, end = start): string =>
  body.slice(0, start) + token + body.slice(end);
