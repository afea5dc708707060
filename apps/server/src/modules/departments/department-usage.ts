/** The staff in each department (departments sit below staff and do not import it): staff registers its counters at startup. */
import { usageRegistry } from '../../lib/usage-registry';

export const departmentUsage = usageRegistry('departments');
export const registerDepartmentUser = departmentUsage.register;
