import { MONEY_MAX } from '@crm/contracts';
import { Input, type InputProps } from 'antd';
import type { Rule } from 'antd/es/form';
import { YUAN_PATTERN, yuanToMilli } from './money';

type Props = Omit<InputProps, 'onChange' | 'value'> & { value?: string; onChange?: (value: string) => void };

/** Keeps digits and one dot with at most 3 decimals (the unit is 1/1000 yuan). */
const cleanYuan = (raw: string) => {
  const body = raw.replace(/[^\d.]/g, '');
  const dot = body.indexOf('.');
  if (dot < 0) return body;
  return `${body.slice(0, dot + 1)}${body
    .slice(dot + 1)
    .replace(/\./g, '')
    .slice(0, 3)}`;
};

/** An amount typed in yuan; the form holds the text, converted to 1/1000 yuan with integer math on submit. */
export const YuanInput = ({ value, onChange, ...rest }: Props) => (
  <Input
    prefix="¥"
    inputMode="decimal"
    maxLength={14}
    {...rest}
    value={value}
    onChange={(e) => onChange?.(cleanYuan(e.target.value))}
  />
);

/** Form rules of a yuan amount: required message, format, at most MONEY_MAX (1/1000 yuan). */
export const yuanRules = (label: string, isRequired = true): Rule[] => [
  ...(isRequired ? [{ required: true, message: `请输入${label}` }] : []),
  {
    validator: async (_, v?: string) => {
      if (!v) return;
      if (!YUAN_PATTERN.test(v)) throw new Error(`${label}格式不正确，最多3位小数`);
      const milli = yuanToMilli(v);
      if (milli === undefined || milli > MONEY_MAX) throw new Error(`${label}不能超过${MONEY_MAX / 1000}元`);
    },
  },
];
