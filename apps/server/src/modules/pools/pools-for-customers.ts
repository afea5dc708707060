/** Hands customers the pool rules they show (customers sit below pools and do not import them). */
import { registerPoolRules } from '../customers/customer-pool-rules';
import { claimBlockedUntil } from './claim-cooldown';
import { visiblePoolIds } from './pool-visibility';
import { exRecoveryExpr, exRecoveryTimes } from './pools-recycle';

/** Called by the app at startup and by the demo seed, which uses the customers service without an app. */
export const registerPoolRulesWithCustomers = () =>
  registerPoolRules({ visiblePoolIds, exRecoveryTimes, exRecoveryExpr, claimBlockedUntil });
