/**
 * 实时预览 of a contract template: the body at A4 proportions (SPEC §9: 595.28 × 841.89 pt), the fields
 * filled with sample values, page ends drawn where an A4 page would end. An HTML preview of the
 * editor's text; the PDF itself is made by the server.
 */
import { amountInCapitals, amountInFigures, PAYMENT_TERM_COLUMNS, paymentTermCells } from '@crm/contracts';
import { Fragment, type ReactNode } from 'react';
import { A4, sampleTerms, splitBody, TABLE_KEYS } from '../templateBody';

type Props = {
  title: string;
  body: string;
  /** sample value per field key */
  samples: Record<string, string>;
  /** the key of the products table field */
  productsKey: string;
  /** the sample amount (1/1000 yuan) the sample payment terms add up to */
  amount: number;
  /** rendered width in px */
  width?: number;
};

const SAMPLE_PRODUCTS = [
  { name: '云呼CRM 标准版（年）', price: '9,800.00', num: 1, total: '9,800.00' },
  { name: '坐席扩容包（10席）', price: '1,272.80', num: 2, total: '2,545.60' },
];

const ProductsTable = ({ scale }: { scale: number }) => {
  const cell = { border: '1px solid #333', padding: `${2 * scale}px ${4 * scale}px` } as const;
  return (
    <table style={{ width: '100%', borderCollapse: 'collapse', margin: `${4 * scale}px 0` }}>
      <thead>
        <tr>
          {['产品名称', '单价(元)', '数量', '小计(元)'].map((h) => (
            <th key={h} style={{ ...cell, background: '#f3f3f3' }}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {SAMPLE_PRODUCTS.map((p) => (
          <tr key={p.name}>
            <td style={cell}>{p.name}</td>
            <td style={{ ...cell, textAlign: 'right' }}>{p.price}</td>
            <td style={{ ...cell, textAlign: 'right' }}>{p.num}</td>
            <td style={{ ...cell, textAlign: 'right' }}>{p.total}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

/** 付款条款 alone on its line: the sample instalments as the server's PDF draws them (期次, 金额 with 大写, 约定日期, 备注). */
const PaymentTermsTable = ({ scale, amount }: { scale: number; amount: number }) => {
  const cell = { border: '1px solid #333', padding: `${2 * scale}px ${4 * scale}px`, whiteSpace: 'pre-line' } as const;
  const terms = sampleTerms(amount);
  const sum = terms.reduce((s, t) => s + t.amount, 0);
  const aligns = ['center', 'right', 'center', 'left'] as const;
  return (
    <div data-testid="a4-payment-terms" style={{ margin: `${4 * scale}px 0` }}>
      <table style={{ width: '100%', borderCollapse: 'collapse' }}>
        <thead>
          <tr>
            {PAYMENT_TERM_COLUMNS.map((h) => (
              <th key={h} style={{ ...cell, background: '#f3f3f3' }}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {terms.map((t, i) => (
            <tr key={t.plan_at}>
              {paymentTermCells(t, i).map((text, k) => (
                <td key={PAYMENT_TERM_COLUMNS[k]} style={{ ...cell, textAlign: aligns[k] }}>
                  {text}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p style={{ margin: 0, textIndent: '2em' }}>
        以上{terms.length}期款项合计{amountInFigures(sum)}（{amountInCapitals(sum)}）。
      </p>
    </div>
  );
};

export const A4Preview = ({ title, body, samples, productsKey, amount, width = 460 }: Props) => {
  const scale = width / A4.width;
  const pageHeight = A4.height * scale;
  const margin = A4.margin * scale;
  const fontSize = A4.fontSize * scale;

  // keys are character offsets in the body: a line's place, a part's place in its line
  const renderLine = (line: string, at: number): ReactNode => {
    const parts = splitBody(line);
    if (parts.length === 1 && parts[0]?.kind === 'field' && parts[0].key === productsKey)
      return <ProductsTable key={at} scale={scale} />;
    if (parts.length === 1 && parts[0]?.kind === 'field' && parts[0].key === TABLE_KEYS.terms)
      return <PaymentTermsTable key={at} scale={scale} amount={amount} />;
    // `# 标题` is a section heading (as the server's PDF draws it)
    const heading = line.trimStart().startsWith('# ');
    if (heading) parts.splice(0, parts.length, ...splitBody(line.trimStart().slice(2)));
    let offset = at;
    const style = heading
      ? { margin: `${fontSize * 0.6}px 0 ${fontSize * 0.2}px`, fontWeight: 700, fontSize: fontSize * 1.1 }
      : { margin: 0, minHeight: fontSize * 1.7, textIndent: line.trim() ? '2em' : 0 };
    return (
      <p key={at} style={{ ...style, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {parts.map((p) => {
          const key = offset;
          offset += p.kind === 'text' ? p.text.length : p.key.length + 4;
          if (p.kind === 'text') return <Fragment key={key}>{p.text}</Fragment>;
          if (p.key === productsKey) return <ProductsTable key={key} scale={scale} />;
          return (
            <mark key={key} style={{ background: '#e6f4ff', color: '#0958d9', padding: 0 }}>
              {samples[p.key] ?? `【${p.key}】`}
            </mark>
          );
        })}
      </p>
    );
  };
  let lineAt = 0;
  const lines = body.split('\n').map((line) => {
    const at = lineAt;
    lineAt += line.length + 1;
    return renderLine(line, at);
  });

  return (
    <div
      data-testid="a4-preview"
      role="document"
      aria-label="A4预览"
      style={{
        width,
        minHeight: pageHeight,
        padding: margin,
        boxSizing: 'border-box',
        background: '#fff',
        boxShadow: '0 1px 6px rgba(0,0,0,.18)',
        fontSize,
        lineHeight: 1.7,
        color: '#111',
        fontFamily: '"Noto Serif SC","Source Han Serif SC","SimSun",serif',
        // a dashed line where each A4 page ends
        backgroundImage: `repeating-linear-gradient(to bottom, transparent 0, transparent ${pageHeight - 1}px, #bbb ${pageHeight - 1}px, #bbb ${pageHeight}px)`,
      }}
    >
      <h3 style={{ textAlign: 'center', fontSize: fontSize * 1.6, margin: `0 0 ${fontSize}px` }}>{title || '合同标题'}</h3>
      {lines}
    </div>
  );
};
