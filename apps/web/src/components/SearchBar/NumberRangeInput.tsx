import { App, Input, Space } from 'antd';
import { checkNumberRange, NUMBER_RANGE_MAX_LENGTH, type NumberRangeText, sanitizeNumeric } from './numberRange';

type Props = {
  value?: NumberRangeText;
  onChange?: (value: NumberRangeText) => void;
  min?: number;
  max?: number;
  /** placeholders of both ends */
  placeholders?: [string, string];
  width?: number;
};

/** Two numeric inputs, each at most 8 characters, checked when the user leaves one (SPEC §5). */
export const NumberRangeInput = ({ value, onChange, min, max, placeholders = ['最小值', '最大值'], width = 200 }: Props) => {
  const { message } = App.useApp();
  const current: NumberRangeText = value ?? ['', ''];
  const allowMinus = (min ?? 0) < 0;

  const type = (edited: 0 | 1, raw: string) => {
    const next: NumberRangeText = [...current];
    next[edited] = sanitizeNumeric(raw, { allowMinus });
    onChange?.(next);
  };
  const leave = (edited: 0 | 1) => {
    const checked = checkNumberRange(current, edited, { min, max });
    if (checked.warning) message.warning(checked.warning);
    if (checked.value[0] !== current[0] || checked.value[1] !== current[1]) onChange?.(checked.value);
  };

  const endWidth = (width - 24) / 2;
  return (
    <Space.Compact style={{ width }}>
      <Input
        value={current[0]}
        placeholder={placeholders[0]}
        maxLength={NUMBER_RANGE_MAX_LENGTH}
        inputMode="numeric"
        style={{ width: endWidth }}
        onChange={(e) => type(0, e.target.value)}
        onBlur={() => leave(0)}
      />
      <Input
        disabled
        value="~"
        tabIndex={-1}
        style={{ width: 24, padding: 0, textAlign: 'center', pointerEvents: 'none', background: 'transparent' }}
      />
      <Input
        value={current[1]}
        placeholder={placeholders[1]}
        maxLength={NUMBER_RANGE_MAX_LENGTH}
        inputMode="numeric"
        style={{ width: endWidth }}
        onChange={(e) => type(1, e.target.value)}
        onBlur={() => leave(1)}
      />
    </Space.Compact>
  );
};
