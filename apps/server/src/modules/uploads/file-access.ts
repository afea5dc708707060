import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { recordingAccess } from '../calls/call-access';
import { attachmentAccess } from '../customers/customer-access';
import { workOrderFileAccess } from '../workorders/workorders-access';
import { findFileByStoredName } from './uploads.repo';

/**
 * Who may fetch a stored file by its link (issue 11): a call's recording only someone who may see
 * the call or its customer, a customer's attachment only someone who may see that customer, a work
 * order's attachment only someone who may see that work order (its customer, or he handles it); the
 * staff who stored a file may always fetch it. Other files of the company (logos, avatars) stay
 * open to its staff. Returns the name to download under when it must not be the stored one.
 */
export const requireFileAccess = async (db: Db, actor: Actor, storedName: string): Promise<{ downloadName?: string }> => {
  if (!/^[\w-]+\.[a-z0-9]+$/.test(storedName)) throw new AppError('NOT_FOUND');
  const row = await findFileByStoredName(db, storedName);
  if (!row || row.tenantId !== actor.tenantId) throw new AppError('NOT_FOUND');
  const recording = await recordingAccess(db, actor, row.id);
  if (recording) {
    if (!recording.isAllowed && row.staffId !== actor.staffId) throw new AppError('NOT_FOUND');
    return { downloadName: recording.downloadName };
  }
  if (row.staffId === actor.staffId) return {};
  const attachment = await attachmentAccess(db, actor, row.id);
  if (attachment && !attachment.isAllowed) throw new AppError('NOT_FOUND');
  const workFile = await workOrderFileAccess(db, actor, row.id);
  if (workFile && !workFile.isAllowed && !attachment?.isAllowed) throw new AppError('NOT_FOUND');
  return {};
};
