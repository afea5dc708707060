import { type SQL, sql } from 'drizzle-orm';

/** `{1,2,3}::int[]`: one parameter however many ids (drizzle would spread a JS array into a list). */
export const intArray = (ids: readonly number[]): SQL => sql`${`{${ids.join(',')}}`}::int[]`;
