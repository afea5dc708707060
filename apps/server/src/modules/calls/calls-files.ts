import { registerFileHolder } from '../uploads/file-access';
import { recordingAccess } from './call-access';

/**
 * A call's recording is served to whoever may see the call or its customer (call-access), under a
 * name without the number; its answer counts for the staff who stored it too (the download name).
 */
export const registerCallsFiles = () =>
  registerFileHolder('recording', { precedence: 0, beforeUploader: true, access: recordingAccess });
