/** The staff holding each role (roles sit below staff and do not import it): staff registers its counters at startup. */
import { usageRegistry } from '../../lib/usage-registry';

export const roleUsage = usageRegistry('roles');
export const registerRoleUser = roleUsage.register;
