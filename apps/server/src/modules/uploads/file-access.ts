import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { findFileByStoredName } from './uploads.repo';

/** What a holder says of one file: whether the caller may read it, and the name to download it under. */
export type FileAccess = { isAllowed: boolean; downloadName?: string };

/**
 * A kind of record that holds stored files (a call's recording, a customer's attachment, a work
 * order's attachment …). The owning module registers what its rule is; uploads only asks.
 */
export type FileHolder = {
  /**
   * A file several kinds hold is decided by the holder with the lowest precedence that holds it
   * (a call's recording before a customer's attachment before a work order's).
   */
  precedence: number;
  /** The caller's access to the file when this kind holds it; undefined when it does not. */
  access: (db: Db, actor: Actor, fileId: number) => Promise<FileAccess | undefined>;
  /**
   * Whether the holder's answer counts for the staff who stored the file too (a recording's
   * download name does); otherwise the staff who stored a file may always fetch it.
   */
  beforeUploader?: boolean;
};

const holders = new Map<string, FileHolder>();

/** Registers the files rule of a kind (once at start-up, from the module that owns the kind). */
export const registerFileHolder = (kind: string, holder: FileHolder) => {
  holders.set(kind, holder);
};

const ranked = () => [...holders.values()].sort((a, b) => a.precedence - b.precedence);

/**
 * Who may fetch a stored file by its link (issue 11): the holders of the file decide by their own
 * rules (see FileHolder); the staff who stored a file may always fetch it. Other files of the
 * company (logos, avatars) stay open to its staff. Returns the name to download under when it
 * must not be the stored one.
 */
export const requireFileAccess = async (db: Db, actor: Actor, storedName: string): Promise<{ downloadName?: string }> => {
  if (!/^[\w-]+\.[a-z0-9]+$/.test(storedName)) throw new AppError('NOT_FOUND');
  const row = await findFileByStoredName(db, storedName);
  if (!row || row.tenantId !== actor.tenantId) throw new AppError('NOT_FOUND');
  const isUploader = row.staffId === actor.staffId;
  for (const holder of ranked()) {
    if (isUploader && !holder.beforeUploader) return {};
    const access = await holder.access(db, actor, row.id);
    if (!access) continue;
    if (!access.isAllowed && !isUploader) throw new AppError('NOT_FOUND');
    return access.downloadName ? { downloadName: access.downloadName } : {};
  }
  return {};
};
