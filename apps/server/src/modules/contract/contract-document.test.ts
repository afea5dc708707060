import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { amountInCapitals, amountInFigures, type PaymentTerm } from '@crm/contracts';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { TemplateRecord } from './contract.repo';
import { DEMO_CONTRACT_BODY } from './contract-demo';
import { renderDraft } from './contract-document';

// 付款条款 in the contract PDF (issue 26): the `{{payment_terms}}` field drawn from the contract's
// instalments, checked in the text pdftotext reads back (as the pdf library's own tests do).

const hasPoppler = spawnSync('pdftotext', ['-v']).status === 0;
if (!hasPoppler) console.warn('contract-document tests: pdftotext (Debian poppler-utils) not installed — SKIPPED');
const dir = mkdtempSync(path.join(os.tmpdir(), 'contract-document-'));
let n = 0;
/** pdftotext of one page (or all), whitespace removed so wrapped Chinese compares simply */
const text = (bytes: Uint8Array, page?: number) => {
  const file = path.join(dir, `doc-${++n}.pdf`);
  writeFileSync(file, bytes);
  const pages = page ? ['-f', String(page), '-l', String(page)] : [];
  return execFileSync('pdftotext', [...pages, file, '-'], { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString('utf8')
    .replace(/\s+/g, '');
};

const at = new Date('2026-11-29T00:00:00Z');
const template = (body: string): TemplateRecord => ({
  id: 1,
  tenantId: 1,
  name: '标准销售合同',
  kind: 1,
  body,
  pdfFileId: null,
  fields: [],
  signAreas: [],
  status: 0,
  createdBy: 1,
  createdAt: at,
  updatedAt: at,
});

const AMOUNT = 12_800_000;
const draft = (body: string, paymentTerms: PaymentTerm[]) =>
  renderDraft({
    template: template(body),
    contract: {
      title: '云呼叫中心服务合同',
      contractNo: 'HT-20261129-0001',
      fields: {
        customer_name: '杭州示例贸易有限公司',
        contact_name: '张先生',
        contact_phone: '13800000000',
        amount_upper: amountInCapitals(AMOUNT),
        amount_lower: amountInFigures(AMOUNT),
        sign_date: '2026-11-29',
        service_period: '一年',
        bank_account: '招商银行 6222 0000 0000 0001',
        // a value typed for the field never replaces the contract's own terms
        payment_terms: '随便写的',
      },
      products: [{ name: '云呼叫中心坐席', spec: '标准版', price: 1_280_000, num: 10, total: AMOUNT }],
      amount: AMOUNT,
      paymentTerms,
    },
    companyName: '示例科技有限公司',
  });

const THREE: PaymentTerm[] = [
  { amount: 3_840_000, plan_at: '2026-12-01', remark: '预付款' },
  { amount: 6_400_000, plan_at: '2027-01-15', remark: '上线验收后' },
  { amount: 2_560_500, plan_at: '2027-03-31', remark: '' },
];

describe('付款条款 in the contract PDF', () => {
  it.skipIf(!hasPoppler)('draws 3 instalments as a table: 期次, amount with its 大写, day, remark, and their sum', async () => {
    const all = text(await draft(DEMO_CONTRACT_BODY, THREE));
    expect(all).toContain('期次金额约定日期备注');
    for (const [i, t] of THREE.entries()) {
      expect(all).toContain(`第${i + 1}期`);
      expect(all).toContain(amountInFigures(t.amount));
      expect(all).toContain(amountInCapitals(t.amount));
      expect(all).toContain(t.plan_at);
    }
    expect(amountInFigures(2_560_500)).toBe('¥2,560.50');
    expect(all).toContain('预付款');
    expect(all).toContain('上线验收后');
    expect(all).toContain(`以上3期款项合计¥12,800.50（${amountInCapitals(12_800_500)}）`);
    expect(all).not.toContain('随便写的');
    expect(all).not.toContain('一次性付清');
    // the row order: 第1期 before 第2期 before 第3期
    expect(all.indexOf('2026-12-01')).toBeLessThan(all.indexOf('2027-01-15'));
    expect(all.indexOf('2027-01-15')).toBeLessThan(all.indexOf('2027-03-31'));
  });

  it.skipIf(!hasPoppler)('says 一次性付清 when the contract has no instalments', async () => {
    const all = text(await draft(DEMO_CONTRACT_BODY, []));
    expect(all).toContain('一次性付清全部合同款项。');
    expect(all).not.toContain('期次');
    expect(all).not.toContain('随便写的');
  });

  it.skipIf(!hasPoppler)('inside a sentence: the instalments in one line, or 一次性付清', async () => {
    const body = '# 第三条 付款方式\n付款方式：{{payment_terms}}。';
    const withTerms = text(await draft(body, THREE.slice(0, 2)));
    expect(withTerms).toContain('付款方式：分2期支付：第1期于2026-12-01前支付¥3,840.00（叁仟捌佰肆拾元整），预付款；');
    expect(withTerms).toContain('第2期于2027-01-15前支付¥6,400.00（陆仟肆佰元整），上线验收后。');
    expect(withTerms).not.toContain('期次');
    expect(text(await draft(body, []))).toContain('付款方式：一次性付清。');
  });

  it.skipIf(!hasPoppler)('24 instalments break across pages under a repeated header', async () => {
    const terms = Array.from({ length: 24 }, (_, i) => ({
      amount: 500_000 + i,
      plan_at: `2027-${String((i % 12) + 1).padStart(2, '0')}-${String(10 + Math.floor(i / 12)).padStart(2, '0')}`,
      remark: `第${i + 1}个月服务费，按月结算，逾期按日万分之五计收违约金`,
    }));
    const body = `${'甲乙双方经友好协商达成如下协议。\n'.repeat(30)}{{payment_terms}}`;
    const bytes = await draft(body, terms);
    const pages = (await PDFDocument.load(bytes)).getPageCount();
    expect(pages).toBeGreaterThan(1);
    const texts = Array.from({ length: pages }, (_, i) => text(bytes, i + 1));
    const first = texts.findIndex((p) => p.includes('第1期'));
    const last = texts.findIndex((p) => p.includes('第24期'));
    expect(last).toBeGreaterThan(first);
    // every page the table runs on starts its rows under the header
    for (let i = first; i <= last; i++) expect(texts[i]).toContain('期次金额约定日期备注');
    const all = text(bytes);
    for (const [i, t] of terms.entries()) {
      expect(all).toContain(`第${i + 1}期`);
      expect(all).toContain(amountInFigures(t.amount));
    }
  });
});
