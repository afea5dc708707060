import { extensionOf } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { cellText } from '../../lib/xlsx-cells';
import { xlsxRows } from '../../lib/xlsx-rows';
import { readTenantFile } from './uploads.service';

/** Splits free text (txt files, typed lists, cells) into candidate numbers: lines, commas, semicolons, tabs. */
export const textTokens = (text: string) =>
  text
    .split(/[\r\n,;，；\t]+/)
    .map((s) => s.trim())
    .filter(Boolean);

type NumberFileOptions = {
  /** tokens the caller accepts; one more throws `tooMany` */
  maxTokens: number;
  tooMany: () => AppError;
  /** an .xlsx with more than maxTokens rows (blank ones too) */
  tooManyRows: () => AppError;
};

/**
 * The candidate numbers of an uploaded .xlsx (every cell of the first worksheet) or .txt of the
 * caller's company, in file order, unchecked: the blacklist and the seat tasks classify them in
 * their own words. Reading stops past `maxTokens`; other file types are refused.
 */
export const readNumberFileTokens = async (
  db: Db,
  dataDir: string,
  actor: Actor,
  fileId: number,
  { maxTokens, tooMany, tooManyRows }: NumberFileOptions,
): Promise<string[]> => {
  const { buf, row } = await readTenantFile(db, dataDir, actor, fileId);
  const ext = extensionOf(row.storedName);
  if (ext === 'txt') {
    const tokens = textTokens(buf.toString('utf8'));
    if (tokens.length > maxTokens) throw tooMany();
    return tokens;
  }
  if (ext !== 'xlsx') throw new AppError('BLACK_FILE_TYPE');
  const tokens: string[] = [];
  try {
    // a row holds at least one number or costs reading for none: rows stop past maxTokens
    for await (const values of xlsxRows(buf, { maxRows: maxTokens, tooManyRows })) {
      for (const v of values) for (const t of textTokens(cellText(v))) tokens.push(t);
      if (tokens.length > maxTokens) throw tooMany();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('IMPORT_FILE_INVALID');
  }
  return tokens;
};
