/** The contract template body: text with fields written as {{字段}} (what the editor inserts and the preview fills). */
import type { PaymentTerm } from '@crm/contracts';
import dayjs from 'dayjs';

/** SPEC §9: A4 is 595.28 × 841.89 pt; margin and body font as the server's PDF (pt). */
export const A4 = { width: 595.28, height: 841.89, margin: 56.7, fontSize: 10.5 } as const;

export type BodyPart = { kind: 'text'; text: string } | { kind: 'field'; key: string };

const FIELD = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** The text and field parts of one line, in order. */
export const splitBody = (line: string): BodyPart[] => {
  const parts: BodyPart[] = [];
  let at = 0;
  for (const m of line.matchAll(FIELD)) {
    if (m.index > at) parts.push({ kind: 'text', text: line.slice(at, m.index) });
    parts.push({ kind: 'field', key: m[1] as string });
    at = m.index + m[0].length;
  }
  if (at < line.length || parts.length === 0) parts.push({ kind: 'text', text: line.slice(at) });
  return parts;
};

/** The field keys a body uses, each once. */
export const fieldsOf = (body: string): string[] => [
  ...new Set(
    body
      .split('\n')
      .flatMap(splitBody)
      .flatMap((p) => (p.kind === 'field' ? [p.key] : [])),
  ),
];

/** The body with `token` put in place of the selection [start, end). */
export const insertAt = (body: string, token: string, start: number, end = start): string =>
  body.slice(0, start) + token + body.slice(end);

/** Fields that are tables when alone on their line: each is inserted on a line of its own. */
export const TABLE_KEYS = { products: 'products', terms: 'payment_terms' } as const;

/** 付款条款 of the preview: 30% on signing, 50% after a month, the rest after three months (in 1/1000 yuan). */
export const sampleTerms = (total: number, today = dayjs()): PaymentTerm[] => {
  const first = Math.round((total * 3) / 10);
  const second = Math.round(total / 2);
  return [
    { amount: first, plan_at: today.format('YYYY-MM-DD'), remark: '预付款' },
    { amount: second, plan_at: today.add(1, 'month').format('YYYY-MM-DD'), remark: '上线验收后' },
    { amount: total - first - second, plan_at: today.add(3, 'month').format('YYYY-MM-DD'), remark: '尾款' },
  ];
};

/** The body a new template starts with: a standard sales contract with the standard fields. */
export const DEFAULT_TEMPLATE_BODY = [
  '甲方（服务方）：{{company_name}}',
  '乙方（客户）：{{customer_name}}',
  '联系人：{{contact_name}}    电话：{{contact_phone}}',
  '',
  '根据《中华人民共和国民法典》及有关法律法规，甲乙双方本着平等自愿、诚实信用的原则，就乙方购买甲方产品及服务事宜，经协商一致，订立本合同。',
  '# 一、产品明细',
  '{{products}}',
  '# 二、合同金额',
  '人民币{{amount_upper}}（{{amount_lower}}）。',
  '# 三、服务期限',
  '{{service_period}}。',
  '# 四、付款方式',
  '乙方按以下付款条款将合同款项支付至甲方以下账户：{{bank_account}}。',
  '{{payment_terms}}',
  '# 五、其他',
  '本合同自双方签署之日起生效，电子签署与纸质签署具有同等法律效力。',
  '',
  '签约日期：{{sign_date}}',
].join('\n');
