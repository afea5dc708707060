import { amountInCapitals, amountInFigures, CONTRACT_FIELDS, type ContractTemplateStoreBody } from '@crm/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import * as repo from './contract.repo';
import { missingGlyphs, renderDraft } from './contract-document';
import { fileBytes } from './contract-files';

/** The template preview (合同设置): the template rendered as the contract PDF with sample values. */

const SAMPLE_AMOUNT = 12_800_000;
const DAY_MS = 86_400_000;

/** 付款条款 of the preview: 30% on signing, 50% after a month, the rest after three (together SAMPLE_AMOUNT). */
const sampleTerms = () =>
  [
    { amount: 3_840_000, days: 0, remark: '预付款' },
    { amount: 6_400_000, days: 30, remark: '上线验收后' },
    { amount: 2_560_000, days: 90, remark: '尾款' },
  ].map((t) => ({
    amount: t.amount,
    plan_at: formatDateTime(new Date(now().getTime() + t.days * DAY_MS)).slice(0, 10),
    remark: t.remark,
  }));

export const previewTemplate = async (db: Db, config: Config, actor: Actor, body: ContractTemplateStoreBody) => {
  const companyName = (await repo.findAccount(db, actor.tenantId))?.companyName || '示例科技有限公司';
  const fields: Record<string, string> = {
    customer_name: '示例客户有限公司',
    contact_name: '张先生',
    contact_phone: '13800000000',
    amount_upper: amountInCapitals(SAMPLE_AMOUNT),
    amount_lower: amountInFigures(SAMPLE_AMOUNT),
    sign_date: formatDateTime(now()).slice(0, 10),
    service_period: '一年',
    bank_account: '示例银行 6222 0000 0000 0000',
    company_name: companyName,
    contract_no: 'HT000000000001',
  };
  for (const f of body.fields)
    if (!(f.key in fields) && !CONTRACT_FIELDS.some((x) => x.key === f.key)) fields[f.key] = `【${f.label}】`;
  const missing = missingGlyphs([body.body, ...body.fields.map((f) => f.label)]);
  if (missing.length) throw new AppError('CONTRACT_FIELD_INVALID', `合同内容含无法显示的字符：${missing.slice(0, 10).join(' ')}`);
  const templatePdf =
    body.kind === 2 && body.pdf_file_id ? await fileBytes(db, config, actor.tenantId, body.pdf_file_id) : undefined;
  const at = now();
  return renderDraft({
    template: {
      id: 0,
      tenantId: actor.tenantId,
      name: body.name,
      kind: body.kind,
      body: body.body,
      pdfFileId: body.pdf_file_id ?? null,
      fields: body.fields,
      signAreas: body.sign_areas,
      status: 0,
      createdBy: actor.staffId,
      createdAt: at,
      updatedAt: at,
    },
    templatePdf,
    contract: {
      title: body.name,
      contractNo: fields.contract_no,
      fields,
      products: [
        { name: '云呼叫中心坐席', spec: '标准版', price: 1_200_000, num: 10, total: 12_000_000 },
        { name: '实施服务', spec: '', price: 800_000, num: 1, total: 800_000 },
      ],
      amount: SAMPLE_AMOUNT,
      paymentTerms: sampleTerms(),
    },
    companyName,
  });
};
