/**
 * The customers carrying each label (labels sit below customers and do not import them): customers
 * register their counters and the detach of a deleted tag at startup (registerCustomersEvents).
 */
import { usageRegistry } from '../../lib/usage-registry';

export const labelUsage = usageRegistry('labels');
export const registerLabelUser = labelUsage.register;
