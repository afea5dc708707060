/** An import's spreadsheet as customer values: the rows as texts, which controls a column can fill, a cell's text as a control's value. */
import { type CascaderOption, DM_TYPE, IMPORT_MAX_ROWS } from '@crm/contracts';
import { REGIONS, type Region } from '@crm/regions';
import { AppError } from '../../lib/app-error';
import { cellText } from '../../lib/xlsx-cells';
import { xlsxRows } from '../../lib/xlsx-rows';
import type { ControlRow } from './customer-templates.service';

/** Kinds an import column can fill: files and linked companies cannot come from a spreadsheet. */
export const IMPORTABLE = (c: ControlRow) =>
  ![DM_TYPE.group, DM_TYPE.staticText, DM_TYPE.file, DM_TYPE.company].includes(c.dmType as 99 | 14 | 12 | 20);
const SPLIT = /[,，、;；|]/;

const SUFFIX = /(省|市|自治区|特别行政区|区|县)$/;
const matchesLabel = (r: Region, piece: string) =>
  piece.startsWith(r.label) || (r.label.length > 2 && piece.startsWith(r.label.replace(SUFFIX, '')));
const labelLength = (r: Region, piece: string) =>
  piece.startsWith(r.label) ? r.label.length : r.label.replace(SUFFIX, '').length;

/**
 * '广东省/深圳市/南山区', '广东 深圳 南山', '北京市/朝阳区' or '广东省深圳市南山区' → region codes.
 * Text that names no region comes back as itself, so the row is rejected rather than silently emptied.
 */
export const regionFromText = (text: string): string[] => {
  const pieces = text.split(/[/\s\-—]+/).filter(Boolean);
  const isJoined = pieces.length === 1;
  let rest = text.trim();
  const path: string[] = [];
  let level: Region[] = REGIONS;
  let i = 0;
  while (path.length < 3 && level.length > 0) {
    const piece = isJoined ? rest : pieces[i];
    if (!piece) break;
    const found = level.find((r) => matchesLabel(r, piece));
    if (!found) {
      // 北京 → 北京市 (a municipality's only city repeats its name): step in without consuming text.
      const only = level.length === 1 && path.length > 0 ? level[0] : undefined;
      if (only && only.children.some((r) => matchesLabel(r, piece))) {
        path.push(String(only.value));
        level = only.children;
        continue;
      }
      break;
    }
    path.push(String(found.value));
    level = found.children;
    if (isJoined) rest = piece.slice(labelLength(found, piece));
    else i++;
  }
  const consumed = isJoined ? rest.length === 0 : i >= pieces.length;
  return path.length > 0 && consumed ? path : [text];
};

const treeFromText = (tree: CascaderOption[], text: string): string[] => {
  const path: string[] = [];
  let level: CascaderOption[] | undefined = tree;
  for (const label of text
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const node: CascaderOption | undefined = level?.find((o) => o.label === label);
    if (!node) return [];
    path.push(node.value);
    level = node.children;
  }
  return path;
};

/** Spreadsheet text of one control → the submitted dmValue list. */
export const toDmValue = (c: ControlRow, text: string, labelIds: Map<string, number>): string[] => {
  if (!text) return [];
  switch (c.dmType) {
    case DM_TYPE.multiSelect:
      return text
        .split(SPLIT)
        .map((s) => s.trim())
        .filter(Boolean);
    case DM_TYPE.address:
      return regionFromText(text);
    case DM_TYPE.customCascader:
    case DM_TYPE.cascader:
      return treeFromText(c.tree as CascaderOption[], text);
    case DM_TYPE.tags:
      return text
        .split(SPLIT)
        .map((s) => labelIds.get(s.trim()))
        .filter((id): id is number => id !== undefined)
        .map(String);
    case DM_TYPE.date:
      return [text.slice(0, 10)];
    default:
      return [text];
  }
};

export const isTreeKind = (c: ControlRow) => c.dmType === DM_TYPE.customCascader || c.dmType === DM_TYPE.cascader;

export const tooManyRows = () => new AppError('IMPORT_FILE_INVALID', `单次最多导入${IMPORT_MAX_ROWS}条客户`);

/**
 * The rows of the first worksheet as texts, row by row, within XLSX_LIMITS. Reading stops at the
 * row after the header and IMPORT_MAX_ROWS rows (blank rows count: each costs reading).
 */
export async function* readRows(buf: Buffer): AsyncGenerator<string[]> {
  for await (const values of xlsxRows(buf, { maxRows: IMPORT_MAX_ROWS + 1, tooManyRows })) yield values.map(cellText);
}
