/** The body of an online template: its text with {{fields}}, and the fields it uses (unknown ones in red). */
import { CONTRACT_LIMITS } from '@crm/contracts';
import { Input, Tag, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import type { RefObject } from 'react';
import { fieldsOf } from '../templateBody';

type Props = {
  area: RefObject<TextAreaRef | null>;
  body: string;
  onChange: (body: string) => void;
  error: string | null;
  labelOf: (key: string) => string;
  unknownKeys: string[];
};

export const TemplateBodyEditor = ({ area, body, onChange, error, labelOf, unknownKeys }: Props) => (
  <>
    <Input.TextArea
      ref={area}
      aria-label="合同正文"
      value={body}
      onChange={(e) => onChange(e.target.value)}
      autoSize={{ minRows: 18, maxRows: 26 }}
      maxLength={CONTRACT_LIMITS.body}
      style={{ fontFamily: 'monospace', fontSize: 13 }}
      status={error ? 'error' : undefined}
    />
    {error && <Typography.Text type="danger">{error}</Typography.Text>}
    <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 6 }}>
      每行一个段落，以“# ”开头的行为标题；字段写作 {'{{字段}}'}，{'{{products}}'}、{'{{payment_terms}}'}{' '}
      单独一行时显示为产品明细表、付款条款表。正文中的字段：
      {fieldsOf(body).map((k) => (
        <Tag key={k} color={unknownKeys.includes(k) ? 'red' : 'blue'} style={{ marginInlineStart: 4 }}>
          {labelOf(k)}
        </Tag>
      ))}
    </Typography.Paragraph>
  </>
);
