import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CONTRACT_STATUS_LABEL } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { type ZipEntry, zipStream } from '../../lib/xlsx-zip';
import { defineJob, enqueueJob, type JobContext, restoreActor, type StoredActor, storeActor } from '../jobs/jobs.service';
import { storeGeneratedFile, streamTenantFile } from '../uploads/uploads.service';
import * as repo from './contract.repo';
import { canReadContract } from './contract-access';

/**
 * /api/contract/batchDownload (issue 26): a durable job that writes one .zip of the selected
 * contracts' PDFs (archived, else signed, else 已作废, else draft). Each PDF is streamed from the
 * file storage into the deflater as the zip is written: one file's chunks in memory, never them all.
 */

type Payload = { actor: StoredActor; ids: number[] };

const fileOf = (c: repo.ContractRecord) => c.archivedFileId ?? c.signedFileId ?? c.dismissedFileId ?? c.draftFileId;

const safe = (s: string) => s.replace(/[\\/:*?"<>|]/g, '_');

/** The PDFs the caller may read, in the order chosen (ids of another company or outside his scope are left out). */
const readable = async (db: Db, actor: Actor, ids: number[]) => {
  const out: repo.ContractRecord[] = [];
  for (let i = 0; i < ids.length; i += 200) {
    for (const c of await repo.contractsByIds(db, actor.tenantId, ids.slice(i, i + 200)))
      if (fileOf(c) && (await canReadContract(db, actor, c))) out.push(c);
  }
  return out;
};

async function* counted(ctx: Pick<JobContext, 'progress'>, done: number, stream: AsyncIterable<Buffer>) {
  for await (const chunk of stream) yield chunk;
  await ctx.progress(done);
}

defineJob<Payload>('contract-zip', {
  onCrash: 'resume',
  run: async ({ db, dataDir }, ctx, payload) => {
    const actor = restoreActor(payload.actor);
    const list = await readable(db, actor, payload.ids);
    await ctx.setTotal(list.length);
    const names = new Set<string>();
    const entries: ZipEntry[] = list.map((c, i) => {
      let name = safe(`${c.contractNo}${c.version > 1 ? `_v${c.version}` : ''}_${CONTRACT_STATUS_LABEL[c.status] ?? ''}.pdf`);
      if (names.has(name)) name = `${c.id}_${name}`;
      names.add(name);
      const lazy = async function* () {
        const stream = await streamTenantFile(db, dataDir, actor, fileOf(c) as number);
        if (!stream) throw new AppError('CONTRACT_PDF_UNAVAILABLE');
        yield* counted(ctx, i + 1, stream as AsyncIterable<Buffer>);
      };
      return { name, data: lazy() };
    });
    const stamp = formatDateTime(new Date()).replace(/[-: ]/g, '').slice(0, 12);
    const file = await storeGeneratedFile(
      db,
      dataDir,
      actor,
      { originalName: `合同_${stamp}.zip`, ext: 'zip', scene: 'export' },
      (fullPath) => pipeline(Readable.from(zipStream(entries)), fs.createWriteStream(fullPath)),
    );
    return { fileId: file.id };
  },
});

/** Starts the job; answers its id (poll GET /api/frontend/customer/job?jobId=). */
export const startBatchDownload = async (db: Db, actor: Actor, ids: number[]) => {
  const unique = [...new Set(ids)];
  if ((await readable(db, actor, unique)).length === 0) throw new AppError('CONTRACT_BATCH_EMPTY');
  return enqueueJob(db, actor, 'contract-zip', { actor: storeActor(actor), ids: unique });
};
