import { CONTACT_STATUS_LABEL, type CustomerListBody, DM_TYPE, type SeasListBody } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { defineExportJob, keysetRows } from '../jobs/xlsx-export';
import { viewerOf } from './customer-access';
import { loadTemplate } from './customer-templates.service';
import { buildListWhere, type ListKind, seasFilters } from './customers-filters';
import * as repo from './customers-list.repo';
import { toRows } from './customers-presenter';

/**
 * Rows per read. Small on purpose: a batch and its presented rows then die in V8's young generation;
 * at 2,000 they outlived it and piled up as old garbage (+150–250 MB of peak RSS over 100,000 rows).
 */
const BATCH = 200;
const KIND_NAME: Record<ListKind, string> = {
  mine: '我的客户',
  allot: '客户分配',
  subscribe: '今日预约',
  never: '从未联系',
  seas: '公海客户',
};

/**
 * Exports the rows of a list the caller may see (the list and the filters the route received), as
 * a durable job; returns the job id at once. The rows are read in id batches and go through the
 * same presenter as the list, so masked numbers stay masked; the pool list's own filters are
 * rebuilt from the stored body.
 */
const startExport = defineExportJob<{ kind: ListKind; body: CustomerListBody | SeasListBody }>(
  'export',
  async (db, actor, { kind, body: f }) => {
    const v = await viewerOf(db, actor);
    const base = await buildListWhere(db, v, kind, f);
    const extra = kind === 'seas' ? seasFilters(f as SeasListBody) : undefined;
    const where = extra ? sql`${base} and ${extra}` : base;
    const tpl = await loadTemplate(db, actor.tenantId);
    const controls = tpl.enabled.filter((c) => c.dmType !== DM_TYPE.group && c.dmType !== DM_TYPE.staticText);
    return {
      title: KIND_NAME[kind],
      sheet: '客户',
      columns: [
        { header: '客户编号', key: 'id', width: 10 },
        { header: '客户名称', key: 'name', width: 28 },
        ...controls.map((c) => ({ header: c.name, key: `c${c.id}`, width: c.dmType === DM_TYPE.textarea ? 40 : 18 })),
        { header: '阶段', key: 'stage', width: 12 },
        { header: '标签', key: 'labels', width: 20 },
        { header: '负责人', key: 'owner', width: 10 },
        { header: '所属部门', key: 'department', width: 12 },
        { header: '最近联系', key: 'contactStatus', width: 10 },
        { header: '最近联系时间', key: 'contactTime', width: 20 },
        { header: '下次跟进时间', key: 'nextTime', width: 20 },
        { header: '联系次数', key: 'contactNum', width: 10 },
        { header: '创建人', key: 'creator', width: 10 },
        { header: '创建时间', key: 'createTime', width: 20 },
      ],
      total: await repo.countCapped(db, where, 10_000_000),
      rows: keysetRows(
        BATCH,
        (afterId, limit) => repo.listBatch(db, where, afterId, limit),
        (r) => r.id,
        async (batch) =>
          (await toRows(db, v, tpl, batch)).map((r) => {
            const byControl = new Map(
              r.templateControls.map((c) => [c.cbTacid, c.dmValueText.join(c.dmType === DM_TYPE.address ? '' : '/')]),
            );
            return {
              id: r.cmCtid,
              name: r.name,
              ...Object.fromEntries(controls.map((c) => [`c${c.id}`, byControl.get(c.id) ?? ''])),
              stage: r.cmNidName,
              labels: r.cmClidsInfo.map((l) => l.name).join('、'),
              owner: r.ownerName,
              department: r.cmDidName,
              contactStatus: CONTACT_STATUS_LABEL[r.lastContactStatus] ?? '',
              contactTime: r.lastContactTime,
              nextTime: r.nextFollowTime,
              contactNum: r.contactNum,
              creator: r.creatorName,
              createTime: r.createTime,
            };
          }),
      ),
    };
  },
);

export const startCustomerExport = (db: Db, actor: Actor, kind: ListKind, body: CustomerListBody | SeasListBody) =>
  startExport(db, actor, { kind, body });
