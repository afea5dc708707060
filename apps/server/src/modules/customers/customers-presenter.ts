import { type ControlValue, type CustomerRow, DM_TYPE } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { maskPhone } from '../../lib/phone';
import { formatDateTime } from '../../lib/time';
import { labelNamesByIds } from '../labels/labels.service';
import { fileInfosByIds } from '../uploads/uploads.service';
import { valueText } from './control-values';
import { isMaskedFor, showPhone, type Viewer, viewerOf } from './customer-access';
import { type LoadedTemplate, loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';
import type { ListRow } from './customers-list.repo';

/** The presenter of customers: stored rows and values as the API shows them to one viewer. */

type ValueNames = { labels: Map<number, string>; customers: Map<number, string>; files: Map<number, string> };

/** Resolves the names control values point at (tags, companies, files) for a page of value sets. */
const resolveNames = async (
  db: Db,
  tenantId: number,
  tpl: LoadedTemplate,
  valsList: Record<string, string[]>[],
  extraLabelIds: number[],
) => {
  const labelIds = new Set<number>(extraLabelIds);
  const companyIds = new Set<number>();
  const fileIds = new Set<number>();
  for (const vals of valsList) {
    for (const c of tpl.enabled) {
      const val = vals[String(c.id)];
      if (!val) continue;
      if (c.dmType === DM_TYPE.tags) for (const x of val) labelIds.add(Number(x));
      if (c.dmType === DM_TYPE.company) companyIds.add(Number(val[0]));
      if (c.dmType === DM_TYPE.file) for (const x of val) fileIds.add(Number(x));
    }
  }
  const fileInfos = await fileInfosByIds(db, tenantId, [...fileIds]);
  const names: ValueNames = {
    labels: await labelNamesByIds(db, tenantId, [...labelIds]),
    customers: await repo.customerNames(db, tenantId, [...companyIds]),
    files: new Map([...fileInfos].map(([id, f]) => [id, f.name])),
  };
  return { names, fileInfos };
};

/** Stored values as the API shows them: labels resolved, phones masked for the viewer. */
const controlsOf = (
  isMasked: boolean,
  tpl: LoadedTemplate,
  vals: Record<string, string[]>,
  { names, fileInfos }: Awaited<ReturnType<typeof resolveNames>>,
): ControlValue[] => {
  const controls: ControlValue[] = [];
  for (const c of tpl.enabled) {
    // A group's own text is a value too (SPEC §4: a text input plus children).
    if (c.dmType === DM_TYPE.staticText) continue;
    const stored = vals[String(c.id)];
    if (!stored) continue;
    const value = c.dmType === DM_TYPE.phone && isMasked ? stored.map(maskPhone) : stored;
    const control: ControlValue = {
      cbTacid: c.id,
      name: c.name,
      dmType: c.dmType,
      dmValue: value,
      dmValueText: valueText(c, value, names),
    };
    if (c.dmType === DM_TYPE.file) control.fileUrls = value.map((id) => fileInfos.get(Number(id))?.url ?? '');
    controls.push(control);
  }
  return controls;
};

/** Turns stored rows into API rows: names resolved per page, each customer's phones masked as the access policy says. */
export const toRows = async (db: Db, v: Viewer, tpl: LoadedTemplate, rows: ListRow[]): Promise<CustomerRow[]> => {
  const resolved = await resolveNames(
    db,
    v.actor.tenantId,
    tpl,
    rows.map((r) => r.vals),
    rows.flatMap((r) => r.label_ids),
  );
  return rows.map((r) => {
    const isMasked = isMaskedFor(v, { ownerId: r.owner_id, poolId: r.pool_id });
    return {
      cmCtid: r.id,
      name: r.name,
      encryptPhone: isMasked ? 1 : 0,
      contactName: r.contact_name,
      contactPhone: showPhone(isMasked, r.contact_phone),
      templateControls: controlsOf(isMasked, tpl, r.vals, resolved),
      cmNid: r.stage_id,
      cmNidName: r.stage_name ?? '',
      cmClids: r.label_ids,
      cmClidsInfo: r.label_ids.map((id) => ({ cmClid: id, name: resolved.names.labels.get(id) ?? '' })),
      ownerId: r.owner_id,
      ownerName: r.owner_name ?? '',
      creatorName: r.creator_name ?? '',
      cmDidName: r.department_name ?? '',
      lastContactStatus: r.last_contact_status,
      lastContactTime: formatDateTime(r.last_contact_at),
      contactNum: r.contact_num,
      followTime: formatDateTime(r.follow_at),
      nextFollowTime: formatDateTime(r.next_follow_at),
      allotTime: formatDateTime(r.allot_at),
      createTime: formatDateTime(r.created_at),
    };
  });
};

/** The saved isFollowShow values of a customer's follow records, masked as that customer's numbers are. */
export const followControlValues = async (
  db: Db,
  actor: Actor,
  customer: repo.CustomerRecord,
  valsList: Record<string, string[]>[],
) => {
  const tpl = await loadTemplate(db, actor.tenantId);
  const isMasked = isMaskedFor(await viewerOf(db, actor), customer);
  const resolved = await resolveNames(db, actor.tenantId, tpl, valsList, []);
  return valsList.map((vals) => controlsOf(isMasked, tpl, vals, resolved));
};
