import { Input } from 'antd';
import { cleanNumeric, finishNumeric } from './control-values';

type Props = {
  value?: string;
  onChange?: (value: string) => void;
  /** kind 3 (数字) keeps one dot; kind 2 (整数) digits only */
  allowDecimal: boolean;
  maxLength: number;
  placeholder?: string;
  id?: string;
};

/**
 * SPEC §5 numeric input: typed text keeps only digits, a leading minus and (for decimals)
 * one dot. The value stays a string so 20-digit numbers survive untouched.
 */
export const NumericInput = ({ value, onChange, allowDecimal, maxLength, placeholder, id }: Props) => (
  <Input
    id={id}
    value={value}
    inputMode={allowDecimal ? 'decimal' : 'numeric'}
    maxLength={maxLength}
    placeholder={placeholder}
    allowClear
    onChange={(e) => onChange?.(cleanNumeric(e.target.value, allowDecimal))}
    onBlur={() => {
      const finished = finishNumeric(value ?? '');
      if (finished !== (value ?? '')) onChange?.(finished);
    }}
  />
);
