/** Customer import contracts: column mapping, start body, preview, row limit. */
import { z } from 'zod';
import { zId } from './common';

/** Where an import column goes: the customer name or a template control. */
export const importMappingItem = z.object({
  column: z.number().int().min(0).max(200),
  target: z.union([z.literal('name'), zId()]),
});
export const IMPORT_DUPLICATE_MODES = ['skip', 'overwrite'] as const;
export const importStartBody = z.object({
  fileId: zId(),
  mapping: z.array(importMappingItem).min(1, '请至少映射一列').max(200),
  duplicateMode: z.enum(IMPORT_DUPLICATE_MODES).default('skip'),
});
export type ImportStartBody = z.infer<typeof importStartBody>;

export const importPreviewSchema = z.object({
  fileId: z.number(),
  headers: z.array(z.string()),
  sampleRows: z.array(z.array(z.string())),
  rowCount: z.number(),
  /** suggested mapping by header name */
  mapping: z.array(z.object({ column: z.number(), target: z.union([z.literal('name'), z.number()]) })),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;
/** SPEC-silent limit: one import file holds at most this many data rows. */
export const IMPORT_MAX_ROWS = 100_000;
