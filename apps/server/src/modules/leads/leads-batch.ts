/**
 * Batch lookup (批量查企业): up to 10,000 names (pasted, or the first column of an .xlsx read by
 * the bounded reader) matched against the registry by a durable job: exact (same normalized name
 * or credit code), fuzzy (best similar name, with its score) or not found. Each chunk's answers
 * and the job's checkpoint commit together, so after kill -9 the job resumes at the next chunk.
 * The answers export through the one export path (defineExportJob) and convert like any lead.
 */
import {
  LEAD_LIMITS,
  LEAD_MATCH,
  LEAD_MATCH_LABEL,
  type LeadBatchCreateBody,
  type LeadBatchQuery,
  type LeadBatchResult,
} from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { cellText } from '../../lib/xlsx-cells';
import { xlsxRows } from '../../lib/xlsx-rows';
import { defineJob, enqueueJob, jobInfo } from '../jobs/jobs.service';
import { defineExportJob, keysetRows } from '../jobs/xlsx-export';
import { readTenantFile } from '../uploads/uploads.service';
import { cleanCreditCode, isValidCreditCode } from './credit-code';
import { coreGrams, nameScore, normalizeName } from './lead-names';
import * as repo from './leads.repo';
import * as data from './leads-data.repo';
import { toLeadCompany } from './leads-presenter';

export const BATCH_JOB = 'leads-batch';
/** Names matched and committed per checkpoint. */
export const BATCH_CHUNK = 500;
/** A best candidate scoring below this is "not found". */
export const FUZZY_MIN_SCORE = 50;

type BatchPayload = { tenantId: number; names: string[] };
type Summary = { total: number; exact: number; fuzzy: number; none: number };

/** Names whose fuzzy candidates one statement fetches. */
const FUZZY_STEP = 100;

/** One chunk: exact matches in one query, the rest's fuzzy candidates in statements of FUZZY_STEP names (bench/leads.ts times it). */
export const matchChunk = async (db: Db, tenantId: number, names: string[]) => {
  const norms = names.map(normalizeName);
  const codes = names.map((n) => (isValidCreditCode(n) ? cleanCreditCode(n) : ''));
  const exact = await repo.exactMatches(db, tenantId, [...new Set(norms.filter(Boolean))], [...new Set(codes.filter(Boolean))]);
  // the company's own row wins over the platform's when both have the name
  const rank = (r: { tenantId: number | null }) => (r.tenantId === null ? 1 : 0);
  const byNorm = new Map<string, (typeof exact)[number]>();
  const byCode = new Map<string, (typeof exact)[number]>();
  for (const r of [...exact].sort((a, b) => rank(a) - rank(b) || a.id - b.id)) {
    if (!byNorm.has(r.nameNorm)) byNorm.set(r.nameNorm, r);
    if (r.creditCode && !byCode.has(r.creditCode)) byCode.set(r.creditCode, r);
  }
  const none = { match: LEAD_MATCH.none, score: 0, companyId: null };
  const out: { match: string; score: number; companyId: number | null }[] = names.map(() => none);
  const fuzzy: { i: number; grams: string[] }[] = [];
  for (let i = 0; i < names.length; i++) {
    const hit = (codes[i] && byCode.get(codes[i] as string)) || byNorm.get(norms[i] as string);
    if (hit) out[i] = { match: LEAD_MATCH.exact, score: 100, companyId: hit.id };
    else {
      const grams = coreGrams(norms[i] as string);
      if (grams.length > 0) fuzzy.push({ i, grams });
    }
  }
  for (let k = 0; k < fuzzy.length; k += FUZZY_STEP) {
    const best = new Map<number, { id: number; score: number }>();
    for (const c of await repo.fuzzyCandidatesMany(db, tenantId, fuzzy.slice(k, k + FUZZY_STEP), 20)) {
      const score = nameScore(norms[c.i] as string, c.nameNorm);
      const was = best.get(c.i);
      if (!was || score > was.score) best.set(c.i, { id: c.id, score });
    }
    for (const { i } of fuzzy.slice(k, k + FUZZY_STEP)) {
      const b = best.get(i);
      out[i] =
        b && b.score >= FUZZY_MIN_SCORE
          ? { match: LEAD_MATCH.fuzzy, score: b.score, companyId: b.id }
          : { match: LEAD_MATCH.none, score: b?.score ?? 0, companyId: null };
    }
  }
  return out;
};

defineJob<BatchPayload>(BATCH_JOB, {
  onCrash: 'resume',
  run: async ({ db }, ctx, payload) => {
    const total = payload.names.length;
    await ctx.setTotal(total);
    const before = ctx.resume?.result as Summary | undefined;
    const summary: Summary = before ?? { total, exact: 0, fuzzy: 0, none: 0 };
    for (let from = ctx.resume?.processed ?? 0; from < total; from += BATCH_CHUNK) {
      const names = payload.names.slice(from, from + BATCH_CHUNK);
      const answers = await matchChunk(db, payload.tenantId, names);
      for (const a of answers) summary[a.match as 'exact' | 'fuzzy' | 'none']++;
      await db.transaction(async (tx) => {
        await data.insertBatchRows(
          tx,
          answers.map((a, i) => ({
            jobId: ctx.jobId,
            tenantId: payload.tenantId,
            row: from + i + 1,
            input: names[i] as string,
            match: a.match,
            score: a.score,
            companyId: a.companyId,
          })),
        );
        await ctx.checkpoint(tx, Math.min(total, from + names.length), summary);
      });
    }
    return { result: summary };
  },
});

const HEADER_WORDS = /^(企业名称|公司名称|名称|企业|公司|name)$/i;

/** The names of the request: pasted lines, or the first column of an uploaded .xlsx (a header row skipped). */
const namesOf = async (db: Db, dataDir: string, actor: Actor, body: LeadBatchCreateBody): Promise<string[]> => {
  const tooMany = () => new AppError('LEAD_BATCH_TOO_MANY');
  let raw: string[] = body.names ?? [];
  if (body.fileId) {
    const { buf, row } = await readTenantFile(db, dataDir, actor, body.fileId);
    if (!/\.xlsx$/i.test(row.storedName)) throw new AppError('LEAD_FILE_UNREADABLE');
    raw = [];
    try {
      for await (const values of xlsxRows(buf, { maxRows: LEAD_LIMITS.batchMaxNames + 1, tooManyRows: tooMany })) {
        raw.push(cellText(values[0] ?? null));
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('LEAD_FILE_UNREADABLE');
    }
    if (raw.length > 0 && HEADER_WORDS.test((raw[0] as string).trim())) raw.shift();
  }
  const names = raw
    .flatMap((line) => line.split(/\r?\n/))
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) throw new AppError('LEAD_BATCH_EMPTY');
  if (names.length > LEAD_LIMITS.batchMaxNames) throw tooMany();
  return names.map((n) => n.slice(0, 100));
};

/** POST kqhk/batch/company: starts the job; the web polls GET customer/job. */
export const startBatch = async (db: Db, dataDir: string, actor: Actor, body: LeadBatchCreateBody) => {
  const names = await namesOf(db, dataDir, actor, body);
  return enqueueJob(db, actor, BATCH_JOB, { tenantId: actor.tenantId, names } satisfies BatchPayload);
};

const requireBatch = async (db: Db, actor: Actor, jobId: string) => {
  const job = await jobInfo(db, actor, jobId).catch((err) => {
    if (err instanceof AppError && err.key === 'JOB_NOT_FOUND') throw new AppError('LEAD_BATCH_NOT_FOUND');
    throw err;
  });
  if (job.kind !== BATCH_JOB) throw new AppError('LEAD_BATCH_NOT_FOUND');
  return job;
};

/** GET kqhk/batch/company: a page of the job's answers and its summary (so far). */
export const batchResult = async (db: Db, actor: Actor, q: LeadBatchQuery): Promise<LeadBatchResult> => {
  const job = await requireBatch(db, actor, q.jobId);
  const [rows, summary] = await Promise.all([
    data.batchRows(db, actor.tenantId, q.jobId, q.match, q.limit, (q.page - 1) * q.limit),
    data.batchSummary(db, actor.tenantId, q.jobId),
  ]);
  const companies = new Map(
    (
      await repo.rowsByIds(
        db,
        actor.tenantId,
        rows.flatMap((r) => (r.companyId ? [r.companyId] : [])),
      )
    ).map((r) => [r.id, r]),
  );
  const count = q.match ? summary[q.match] : summary.exact + summary.fuzzy + summary.none;
  return {
    jobId: q.jobId,
    status: job.status,
    processed: job.processed,
    summary: { total: job.total, ...summary },
    count,
    list: rows.map((r) => {
      const c = r.companyId ? companies.get(r.companyId) : undefined;
      return { row: r.row, input: r.input, match: r.match, score: r.score, company: c ? toLeadCompany(c) : null };
    }),
  };
};

type ExportPayload = { jobId: string; match?: 'exact' | 'fuzzy' | 'none' };

const startExport = defineExportJob<ExportPayload>('leads-batch-export', async (db, actor, p) => {
  const summary = await data.batchSummary(db, actor.tenantId, p.jobId);
  return {
    title: '批量查企业结果',
    sheet: '查询结果',
    columns: [
      { header: '行号', key: 'row', width: 8 },
      { header: '输入名称', key: 'input', width: 30 },
      { header: '匹配结果', key: 'match', width: 10 },
      { header: '相似度', key: 'score', width: 8 },
      { header: '企业名称', key: 'name', width: 32 },
      { header: '统一社会信用代码', key: 'creditCode', width: 22 },
      { header: '法定代表人', key: 'legalRep', width: 10 },
      { header: '登记状态', key: 'status', width: 8 },
      { header: '所在地区', key: 'region', width: 20 },
      { header: '行业', key: 'industry', width: 22 },
      { header: '注册资本（万元）', key: 'capital', width: 12 },
      { header: '成立日期', key: 'foundedOn', width: 12 },
      { header: '电话', key: 'phones', width: 28 },
      { header: '地址', key: 'address', width: 36 },
    ],
    total: p.match ? summary[p.match] : summary.exact + summary.fuzzy + summary.none,
    rows: keysetRows(
      1000,
      async (afterRow, limit) => await data.batchRowsAfter(db, actor.tenantId, p.jobId, p.match, afterRow, limit),
      (r) => r.row,
      async (list) => {
        const companies = new Map(
          (
            await repo.rowsByIds(
              db,
              actor.tenantId,
              list.flatMap((r) => (r.companyId ? [r.companyId] : [])),
            )
          ).map((r) => [r.id, toLeadCompany(r)]),
        );
        return list.map((r) => {
          const c = r.companyId ? companies.get(r.companyId) : undefined;
          return {
            row: r.row,
            input: r.input,
            match: LEAD_MATCH_LABEL[r.match] ?? r.match,
            score: r.score,
            name: c?.name ?? '',
            creditCode: c?.creditCode ?? '',
            legalRep: c?.legalRep ?? '',
            status: c?.statusLabel ?? '',
            region: c?.regionLabel ?? '',
            industry: c?.industryLabel ?? '',
            capital: c ? c.capitalWan : '',
            foundedOn: c?.foundedOn ?? '',
            phones: c?.phones.join('，') ?? '',
            address: c?.address ?? '',
          };
        });
      },
    ),
  };
});

/** POST kqhk/batch/company/export: the answers as .xlsx (poll GET customer/job for the file). */
export const exportBatch = async (db: Db, actor: Actor, body: ExportPayload) => {
  await requireBatch(db, actor, body.jobId);
  return startExport(db, actor, body);
};
