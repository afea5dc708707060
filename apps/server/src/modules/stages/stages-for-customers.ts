/** Stage names by id for the customers' area (the follow-up history names the stage of each record). */
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { stages } from '../../db/schema';

/** The names of the company's stages by id (unknown ids are left out). */
export const stageNames = async (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? new Map<number, string>()
    : new Map(
        (
          await db
            .select({ id: stages.id, name: stages.name })
            .from(stages)
            .where(and(eq(stages.tenantId, tenantId), inArray(stages.id, [...new Set(ids)])))
        ).map((r) => [r.id, r.name]),
      );
