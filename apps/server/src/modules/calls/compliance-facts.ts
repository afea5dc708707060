/** What the calls module hands compliance when it starts: its call records and settings, read through calls.repo. */
import type { DbOrTx } from '../../db/client';
import { provideCallFacts } from '../compliance/call-facts';
import * as repo from './calls.repo';

export const wireComplianceFacts = () =>
  provideCallFacts({
    findTenantCall: repo.findTenantCall,
    dncRetentionMonths: async (db: DbOrTx, tenantId: number) => (await repo.findCallSettings(db, tenantId))?.dncRetentionMonths,
    outboundStartsSince: repo.outboundStartsSince,
  });
