import { registerFileHolder } from '../uploads/file-access';
import { workOrderFileAccess } from './workorders-access';

/**
 * A work order's attachment is served to whoever may see one of the work orders holding it (its
 * customer, or he handles it); a file a customer also holds is decided by the customer's rule.
 */
export const registerWorkOrdersFiles = () =>
  registerFileHolder('workorder-attachment', { precedence: 20, access: workOrderFileAccess });
