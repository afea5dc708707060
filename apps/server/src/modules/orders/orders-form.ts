import { extensionOf, IMAGE_EXTENSIONS, ORDER_ATTR, ORDER_ATTRS } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError, asAppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { parseDateTime } from '../../lib/time';
import { requireOwnFile } from '../uploads/uploads.service';

/** The deal form of order/store: its attributes (SPEC §5) and its images checked. */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

type AttrValue = string | number | string[] | null;

/** The form's attributes (SPEC §5 deal form): required ones filled, dates and options valid. */
export const readAttrs = (attr: Record<string, AttrValue>) => {
  const out: Record<string, string | string[]> = {};
  for (const a of ORDER_ATTRS) {
    const raw = attr[String(a.id)];
    const list = (Array.isArray(raw) ? raw : raw === null || raw === undefined ? [] : [String(raw)])
      .map((v) => v.trim())
      .filter(Boolean);
    const isChoice = a.dmType === 4 || a.dmType === 7 || a.dmType === 8;
    if (list.length === 0) {
      if (a.dmMust === 1) throw new AppError('ORDER_ATTR_REQUIRED', `${isChoice ? '请选择' : '请输入'}${a.name}`);
      continue;
    }
    if (a.dmType === 4 && !(DATE.test(list[0]) && parseDateTime(list[0])))
      throw new AppError('ORDER_ATTR_REQUIRED', `请选择${a.name}`);
    if ((a.dmType === 7 || a.dmType === 8) && list.some((v) => !a.dmValue.includes(v)))
      throw new AppError('ORDER_ATTR_REQUIRED', `请选择${a.name}`);
    out[String(a.id)] = a.dmType === 8 ? list : list[0];
  }
  const date = (id: number) => {
    const v = out[String(id)];
    return typeof v === 'string' ? parseDateTime(v) : null;
  };
  const startAt = date(ORDER_ATTR.startDate);
  const endAt = date(ORDER_ATTR.endDate);
  if (startAt && endAt && endAt < startAt) throw new AppError('ORDER_DATE_INVALID');
  return { attr: out, dealAt: date(ORDER_ATTR.dealDate), startAt, endAt };
};

/** The images: the caller's own png/jpg uploads, each once. */
export const requireOrderImages = async (db: Db, actor: Actor, ids: number[]) => {
  const imageIds = [...new Set(ids)];
  for (const id of imageIds) {
    const file = await requireOwnFile(db, actor, id).catch(asAppError('ORDER_IMAGE_INVALID'));
    if (file.staffId !== actor.staffId || !(IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(file.storedName))) {
      throw new AppError('ORDER_IMAGE_INVALID');
    }
  }
  return imageIds;
};
