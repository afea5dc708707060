import { DatePicker, Form, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { SearchActions } from '../../../components/SearchActions';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';

type Values = { staff_id?: number; choice?: number; range?: [Dayjs, Dayjs] | null };
/** What the bar searches for: the owner, the one choice (status, pay type) and the date range (YYYY-MM-DD, '' for open). */
export type ReceiptSearch = { staff_id?: number; choice?: number; from: string; to: string };

/**
 * 回款管理's search bar, shared by its two lists: 负责人, one choice of the list's own (回款状态,
 * 付款方式) and a date range, with 搜索/重置 and the list's extra buttons (children).
 */
export const ReceiptSearchBar = ({
  choice,
  rangePlaceholder,
  onSearch,
  children,
}: {
  choice: { placeholder: string; options: { value: number; label: string }[] };
  rangePlaceholder: [string, string];
  onSearch: (search: ReceiptSearch) => void;
  children?: ReactNode;
}) => {
  const [form] = Form.useForm<Values>();
  const search = (v: Values) =>
    onSearch({
      staff_id: v.staff_id,
      choice: v.choice,
      from: v.range?.[0]?.format('YYYY-MM-DD') ?? '',
      to: v.range?.[1]?.format('YYYY-MM-DD') ?? '',
    });
  return (
    <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
      <Form.Item name="staff_id">
        <StaffSearchSelect placeholder="负责人" allowClear style={{ width: 140 }} />
      </Form.Item>
      <Form.Item name="choice">
        <Select placeholder={choice.placeholder} allowClear options={choice.options} style={{ width: 120 }} />
      </Form.Item>
      <Form.Item name="range">
        <DatePicker.RangePicker placeholder={rangePlaceholder} style={{ width: 260 }} />
      </Form.Item>
      <SearchActions
        onReset={() => {
          form.resetFields();
          search({});
        }}
      >
        {children}
      </SearchActions>
    </Form>
  );
};
