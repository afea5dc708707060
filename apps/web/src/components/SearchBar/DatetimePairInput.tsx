import { DatePicker, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { fitDatetimePair, isEndDateDisabled, isStartDateDisabled } from './datetimePair';

type Pair = [Dayjs | null, Dayjs | null];
type Props = { value?: Pair; onChange?: (value: Pair) => void; width?: number };

/**
 * Start and end date-times (SPEC §5): the end stays within the start's month and the start
 * within the end's month; clearing one end frees the other to move to another month.
 */
export const DatetimePairInput = ({ value, onChange, width = 360 }: Props) => {
  const [start, end] = value ?? [null, null];
  return (
    <Space.Compact style={{ width }}>
      <DatePicker
        showTime
        value={start}
        placeholder="开始时间"
        style={{ width: width / 2 }}
        disabledDate={(d) => isStartDateDisabled(d, end)}
        onChange={(d) => onChange?.(fitDatetimePair(d, end))}
      />
      <DatePicker
        showTime
        value={end}
        placeholder="结束时间"
        style={{ width: width / 2 }}
        disabledDate={(d) => isEndDateDisabled(d, start)}
        onChange={(d) => onChange?.(fitDatetimePair(start, d))}
      />
    </Space.Compact>
  );
};
