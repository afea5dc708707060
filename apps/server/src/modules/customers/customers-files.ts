import { registerFileHolder } from '../uploads/file-access';
import { attachmentAccess } from './customer-access';

/** A customer's attachment (a file control's value) is served to whoever may see that customer. */
export const registerCustomersFiles = () =>
  registerFileHolder('customer-attachment', { precedence: 10, access: attachmentAccess });
