/**
 * The customers in each stage (stages sit below customers and do not import them): customers
 * register their counters and the detach of a deleted stage at startup (registerCustomersEvents).
 */
import { usageRegistry } from '../../lib/usage-registry';

export const stageUsage = usageRegistry('stages');
export const registerStageUser = stageUsage.register;
