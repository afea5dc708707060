import { z } from 'zod';

/** SPEC §5 upload rules, enforced by the server and by the shared Upload widget. */
export const UPLOAD_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'wav',
  'mp4',
  'mp3',
  'm4a',
  'doc',
  'docx',
  'pdf',
  'txt',
  'xls',
  'xlsx',
  'rar',
  'zip',
] as const;
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;
export const UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
export const UPLOAD_MAX_FILES = 5;
/**
 * Bounds for reading an untrusted .xlsx (customer import, blacklist files). An upload is at most
 * 20 MB packed, but a zip part can unpack to gigabytes: the reader counts the bytes it inflates
 * (never trusting the sizes the zip declares) and refuses past these limits.
 */
export const XLSX_LIMITS = {
  /** Unpacked bytes of the worksheet read (100,000 rows of 15 columns written by Excel/ExcelJS: about 60 MB). */
  sheetBytes: 256 * 1024 * 1024,
  /** Unpacked bytes of the shared strings part (the same file: about 26 MB). */
  sharedStringsBytes: 128 * 1024 * 1024,
  /** Unpacked bytes of any other part read: workbook, relationships, styles. */
  partBytes: 16 * 1024 * 1024,
  /** Shared strings held in memory: 100,000 rows of 20 distinct texts. */
  sharedStrings: 2_000_000,
  /** Characters of one cell text: Excel's own limit. */
  cellChars: 32_767,
  /** Columns of a row (a template has at most 300 controls). */
  columns: 1024,
} as const;
export type XlsxLimits = { [K in keyof typeof XLSX_LIMITS]: number };
export const uploadResultSchema = z.object({ id: z.number(), url: z.string(), name: z.string(), size: z.number() });
export type UploadResult = z.infer<typeof uploadResultSchema>;
/** An upload answers the first file's fields and every file in `list`. */
export const uploadAnswerSchema = uploadResultSchema.extend({ list: z.array(uploadResultSchema) });
export const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};
