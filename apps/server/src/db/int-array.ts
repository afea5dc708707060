import { type SQL, sql } from 'drizzle-orm';

/** `{1,2,3}::int[]`: one parameter however many ids (drizzle would spread a JS array into a list). */
export const intArray = (ids: readonly number[]): SQL => sql`${`{${ids.join(',')}}`}::int[]`;

/** `{"a","b"}::text[]`: one parameter however many strings (each quoted, `"` and `\` escaped). */
export const textArray = (values: readonly string[]): SQL =>
  sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`}::text[]`;
