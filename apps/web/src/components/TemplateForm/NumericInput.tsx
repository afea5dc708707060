import { Input } from 'antd';
import { clampNumeric, cleanNumeric, finishNumeric } from './control-values';

type Props = {
  value?: string;
  onChange?: (value: string) => void;
  /** kind 3 (数字) keeps one dot; kind 2 (整数) digits only */
  allowDecimal: boolean;
  maxLength: number;
  placeholder?: string;
  id?: string;
  /** SPEC §5: the value is clamped to these bounds (max while typing, min too when the input is left) */
  min?: number;
  max?: number;
};

/**
 * SPEC §5 numeric input: typed text keeps only digits, a leading minus and (for decimals)
 * one dot, clamped to min/max when given. The value stays a string so 20-digit numbers survive untouched.
 */
export const NumericInput = ({ value, onChange, allowDecimal, maxLength, placeholder, id, min, max }: Props) => (
  <Input
    id={id}
    value={value}
    inputMode={allowDecimal ? 'decimal' : 'numeric'}
    maxLength={maxLength}
    placeholder={placeholder}
    allowClear
    onChange={(e) => onChange?.(clampNumeric(cleanNumeric(e.target.value, allowDecimal), { min, max }, false))}
    onBlur={() => {
      const finished = clampNumeric(finishNumeric(value ?? ''), { min, max }, true);
      if (finished !== (value ?? '')) onChange?.(finished);
    }}
  />
);
