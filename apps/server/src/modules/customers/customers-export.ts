import { CONTACT_STATUS_LABEL, type CustomerListBody, DM_TYPE, type SeasListBody } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { defineJob, enqueueJob, restoreActor, type StoredActor, storeActor } from '../jobs/jobs.service';
import { writeExportXlsx } from '../jobs/xlsx-export';
import { viewerOf } from './customer-access';
import { loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';
import { buildListWhere, type ListKind, seasFilters } from './customers-filters';
import { toRows } from './customers-presenter';

const BATCH = 2000;
const KIND_NAME: Record<ListKind, string> = {
  mine: '我的客户',
  allot: '客户分配',
  subscribe: '今日预约',
  never: '从未联系',
  seas: '公海客户',
};

/** What an export job stores: the caller and the list with the filters the route received, as plain JSON. */
type ExportPayload = { actor: StoredActor; kind: ListKind; body: CustomerListBody | SeasListBody };

/**
 * Exports the rows of a list the caller may see, as a durable job (any instance runs it; after
 * a crash it simply starts again and writes a fresh file: the file row is only written once the
 * whole workbook is stored). Returns the job id at once.
 */
export const startCustomerExport = async (db: Db, actor: Actor, kind: ListKind, body: CustomerListBody | SeasListBody) =>
  enqueueJob(db, actor, 'export', { actor: storeActor(actor), kind, body } satisfies ExportPayload);

/**
 * The export itself: .xlsx streamed to disk in id batches (bounded memory). Masked numbers stay
 * masked: rows go through the same presenter as the list. The pool list's own filters are
 * rebuilt from the stored body.
 */
defineJob<ExportPayload>('export', {
  onCrash: 'resume',
  run: async ({ db, dataDir }, ctx, { actor: stored, kind, body: f }) => {
    const actor = restoreActor(stored);
    const v = await viewerOf(db, actor);
    const base = await buildListWhere(db, v, kind, f);
    const extra = kind === 'seas' ? seasFilters(f as SeasListBody) : undefined;
    const where = extra ? sql`${base} and ${extra}` : base;
    const tpl = await loadTemplate(db, actor.tenantId);
    const controls = tpl.enabled.filter((c) => c.dmType !== DM_TYPE.group && c.dmType !== DM_TYPE.staticText);
    await ctx.setTotal(await repo.countCapped(db, where, 10_000_000));
    return writeExportXlsx(
      { db, dataDir },
      actor,
      {
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
      },
      async (add) => {
        let afterId = 0;
        let done = 0;
        for (;;) {
          const batch = await repo.listBatch(db, where, afterId, BATCH);
          if (batch.length === 0) break;
          for (const r of await toRows(db, v, tpl, batch)) {
            const byControl = new Map(
              r.templateControls.map((c) => [c.cbTacid, c.dmValueText.join(c.dmType === DM_TYPE.address ? '' : '/')]),
            );
            add({
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
            });
          }
          afterId = batch[batch.length - 1].id;
          done += batch.length;
          await ctx.progress(done);
        }
      },
    );
  },
});
