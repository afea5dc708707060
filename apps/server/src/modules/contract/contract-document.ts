import {
  amountInCapitals,
  amountInFigures,
  CONTRACT_PAGE,
  PAYMENT_TERM_COLUMNS,
  PAYMENT_TERMS_NONE,
  type PaymentTerm,
  paymentTermCells,
  paymentTermsText,
  SEAL_KIND,
} from '@crm/contracts';
import type { ContractRecord, SealRecord, TemplateRecord } from './contract.repo';
import {
  type Block,
  type CustomerSignature,
  fillPdfTemplate,
  renderContractPdf,
  type SealSource,
  type SignatureSlot,
  stampSignatures,
  unsupportedChars,
} from './pdf';

/**
 * What a contract's PDF is made of (issue 26): the template's body with the contract's fields filled
 * (or the uploaded PDF with the fields drawn where they were placed), then the seal and the customer's
 * signature stamped into their slots. The pdf library draws; this file decides what goes where.
 */

export type ProductLine = { name: string; spec: string; price: number; num: number; total: number };

const PLACEHOLDER = /\{\{\s*([a-z_0-9]+)\s*\}\}/g;

/** A body line with its fields filled; unknown keys stay empty. */
export const fillText = (text: string, fields: Record<string, string>) =>
  text.replace(PLACEHOLDER, (_, key: string) => fields[key] ?? '');

/** The keys a body uses. */
export const keysOfBody = (body: string) => [...new Set([...body.matchAll(PLACEHOLDER)].map((m) => m[1]))];

const productsTable = (products: ProductLine[], amount: number, upper: string): Block => ({
  kind: 'table',
  table: {
    columns: [
      { title: '序号', width: 1, align: 'center' },
      { title: '产品名称', width: 4 },
      { title: '规格', width: 3 },
      { title: '单价', width: 2, align: 'right' },
      { title: '数量', width: 1.2, align: 'right' },
      { title: '小计', width: 2.4, align: 'right' },
    ],
    rows: products.map((p, i) => [
      String(i + 1),
      p.name,
      p.spec || '-',
      amountInFigures(p.price),
      String(p.num),
      amountInFigures(p.total),
    ]),
    totals: [
      { label: '合计（小写）', value: amountInFigures(amount) },
      { label: '合计（大写）', value: upper },
    ],
  },
});

/** 付款条款: the instalments as a table (rows break across pages under a repeated header) and their sum, or 一次性付清. */
const paymentTermsBlocks = (terms: PaymentTerm[]): Block[] => {
  if (terms.length === 0) return [{ kind: 'paragraph', text: PAYMENT_TERMS_NONE.line, isIndented: true }];
  const [no, amount, day, remark] = PAYMENT_TERM_COLUMNS;
  const sum = terms.reduce((s, t) => s + t.amount, 0);
  return [
    {
      kind: 'table',
      table: {
        columns: [
          { title: no, width: 1.3, align: 'center' },
          { title: amount, width: 4.2, align: 'right' },
          { title: day, width: 2.2, align: 'center' },
          { title: remark, width: 3.3 },
        ],
        rows: terms.map(paymentTermCells),
      },
    },
    {
      kind: 'paragraph',
      text: `以上${terms.length}期款项合计${amountInFigures(sum)}（${amountInCapitals(sum)}）。`,
      isIndented: true,
    },
  ];
};

const PRODUCTS_LINE = /^\{\{\s*products\s*\}\}$/;
const TERMS_LINE = /^\{\{\s*payment_terms\s*\}\}$/;

/**
 * The blocks of a body template: `# 标题` a section heading, a line holding only `{{products}}` the
 * products table, only `{{payment_terms}}` the payment terms table, an empty line a small space, any
 * other line an indented paragraph (`{{payment_terms}}` inside a sentence: the terms in one line).
 */
export const bodyBlocks = (
  body: string,
  fields: Record<string, string>,
  products: ProductLine[],
  amount: number,
  terms: PaymentTerm[] = [],
): Block[] =>
  body.split(/\r?\n/).flatMap((line): Block[] => {
    const trimmed = line.trim();
    if (trimmed === '') return [{ kind: 'spacer', height: 6 }];
    if (PRODUCTS_LINE.test(trimmed)) return [productsTable(products, amount, fields.amount_upper ?? '')];
    if (TERMS_LINE.test(trimmed)) return paymentTermsBlocks(terms);
    if (trimmed.startsWith('# ')) return [{ kind: 'heading', text: fillText(trimmed.slice(2), fields), level: 2 }];
    return [{ kind: 'paragraph', text: fillText(trimmed, fields), isIndented: true }];
  });

/** Every text that will be drawn, for the font check before anything is written. */
export const textsOf = (c: {
  title: string;
  fields: Record<string, string>;
  products: ProductLine[];
  paymentTerms?: PaymentTerm[];
}) => [
  c.title,
  ...Object.values(c.fields),
  ...c.products.flatMap((p) => [p.name, p.spec]),
  ...(c.paymentTerms ?? []).map((t) => t.remark),
];

/** The characters the shipped font cannot draw (so a contract is refused before a PDF with gaps is made). */
export const missingGlyphs = (texts: string[]) => [...new Set(texts.flatMap((t) => unsupportedChars(t)))];

/** Page slots of a PDF template's sign areas (given from the top-left, the library wants the bottom-left). */
const slotsOf = (t: TemplateRecord): SignatureSlot[] =>
  t.signAreas.map((a) => {
    const isCompany = a.party === 1;
    const width = isCompany ? 120 : 150;
    const height = isCompany ? 120 : 60;
    return {
      signer: isCompany ? 'company' : 'customer',
      page: a.page - 1,
      x: a.x,
      y: Math.max(0, CONTRACT_PAGE.height - a.y - height),
      width,
      height,
    };
  });

/** The unsigned contract PDF. */
export const renderDraft = async (input: {
  template: TemplateRecord;
  templatePdf?: Uint8Array;
  contract: Pick<ContractRecord, 'title' | 'contractNo' | 'fields' | 'products' | 'amount' | 'paymentTerms'>;
  companyName: string;
}) => {
  const { template, contract, companyName } = input;
  // 付款条款 always from the contract's terms (inside a sentence, or on an uploaded PDF's page)
  const fields: Record<string, string> = { ...contract.fields, payment_terms: paymentTermsText(contract.paymentTerms) };
  if (template.kind === 2) {
    if (!input.templatePdf) throw new Error('pdf template without its file');
    return fillPdfTemplate(
      input.templatePdf,
      template.fields
        .filter((f) => f.page !== undefined && f.x !== undefined && f.y !== undefined)
        .map((f) => {
          const fontSize = f.font_size ?? 11;
          return {
            page: (f.page ?? 1) - 1,
            x: f.x ?? 0,
            y: Math.max(0, CONTRACT_PAGE.height - (f.y ?? 0) - fontSize),
            width: f.width,
            fontSize,
            value: f.key === 'products' ? contract.products.map((p) => `${p.name} ×${p.num}`).join('；') : (fields[f.key] ?? ''),
          };
        }),
    );
  }
  return renderContractPdf({
    title: contract.title,
    number: contract.contractNo,
    companyName,
    body: bodyBlocks(template.body, fields, contract.products, contract.amount, contract.paymentTerms),
    parties: [
      { role: '甲方', name: companyName, signer: 'company', lines: [{ label: '签约日期', value: fields.sign_date ?? '' }] },
      {
        role: '乙方',
        name: fields.customer_name ?? '',
        signer: 'customer',
        lines: [
          { label: '联系人', value: fields.contact_name ?? '' },
          { label: '电话', value: fields.contact_phone ?? '' },
        ],
      },
    ],
  });
};

/** The seal as the pdf library stamps it: drawn from the company name, or the uploaded PNG. */
export const sealSourceOf = (seal: SealRecord, companyName: string, png?: Uint8Array): SealSource =>
  seal.kind === SEAL_KIND.uploaded && png
    ? { png }
    : { generated: { companyName, kind: seal.kind === SEAL_KIND.official ? '公章' : '合同专用章' } };

/** The draft with what has been signed so far stamped in (the seal, the customer's signature). */
export const stampSoFar = async (input: {
  draft: Uint8Array;
  template: TemplateRecord;
  seal?: SealSource;
  customer?: CustomerSignature;
  companySignedAt?: string;
  customerSignedAt?: string;
}) => {
  if (!input.seal && !input.customer) return input.draft;
  return stampSignatures(input.draft, {
    seal: input.seal,
    customer: input.customer,
    slots: input.template.kind === 2 ? slotsOf(input.template) : undefined,
    companySignedAt: input.companySignedAt,
    customerSignedAt: input.customerSignedAt,
  });
};
