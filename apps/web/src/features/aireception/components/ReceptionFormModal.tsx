import type { AireceptionSaveBody, AireceptionSetting } from '@crm/contracts';
import { Form, Input, Select, Switch, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { FormModal } from '../../../components/FormModal';
import { usePublishedFlows } from '../../aicall/api';
import { AgentsField } from '../../calltasks/components/taskFormFields';
import { useSaveReception } from '../api';

type Values = { number: string; flowId?: number; hours: [Dayjs, Dayjs]; cmSidInfo: number[]; isEnabled: boolean };

/** '24:00' (the day's end) reads as 23:59 on the picker. */
const timeOf = (hhmm: string) => dayjs(hhmm === '24:00' ? '23:59' : hhmm, 'HH:mm');

/** 新增 / 编辑接待号码: the number, its 话术, the reception hours (Beijing time), who takes 转人工, on/off. */
export const ReceptionFormModal = ({ row, onClose }: { row: AireceptionSetting | null; onClose: () => void }) => {
  const [form] = Form.useForm<Values>();
  const flows = usePublishedFlows();
  const save = useSaveReception();
  const options = (flows.data ?? []).map((f) => ({ value: f.id, label: `${f.name}（v${f.version}）` }));
  if (row && !options.some((o) => o.value === row.flowId)) options.unshift({ value: row.flowId, label: row.flowName });
  const submit = async (v: Values) => {
    const body: AireceptionSaveBody = {
      id: row?.id,
      number: v.number.trim(),
      flowId: v.flowId as number,
      from: v.hours[0].format('HH:mm'),
      to: v.hours[1].format('HH:mm'),
      cmSidInfo: v.cmSidInfo ?? [],
      isEnabled: v.isEnabled ? 1 : 0,
    };
    await save.mutateAsync(body);
    return row ? '保存成功' : '添加成功';
  };
  return (
    <FormModal<Values>
      open
      title={row ? '编辑接待号码' : '新增接待号码'}
      name="reception"
      form={form}
      isPending={save.isPending}
      onSubmit={submit}
      onClose={onClose}
      initialValues={
        row
          ? {
              number: row.number,
              flowId: row.flowId,
              hours: [timeOf(row.from), timeOf(row.to)],
              cmSidInfo: row.cmSidInfo,
              isEnabled: row.isEnabled === 1,
            }
          : { hours: [timeOf('09:00'), timeOf('18:00')], cmSidInfo: [], isEnabled: true }
      }
    >
      <Form.Item
        name="number"
        label="接待号码"
        tooltip="呼入到该号码（或分机号）的来电由机器人接待"
        rules={[
          { required: true, whitespace: true, message: '请输入接待号码' },
          { pattern: /^\d{3,20}$/, message: '请输入正确的接待号码' },
        ]}
      >
        <Input maxLength={20} placeholder="例如：4008001234" />
      </Form.Item>
      <Form.Item name="flowId" label="话术" rules={[{ required: true, message: '请选择话术' }]}>
        <Select placeholder="选择已发布的话术" options={options} loading={flows.isLoading} />
      </Form.Item>
      <Form.Item
        name="hours"
        label="接待时间"
        tooltip="北京时间；时间外的来电不由机器人接待"
        rules={[{ required: true, message: '请选择接待时间' }]}
      >
        <TimePicker.RangePicker format="HH:mm" minuteStep={5} order style={{ width: '100%' }} />
      </Form.Item>
      <AgentsField
        agents={{
          label: '转人工坐席',
          isRequired: false,
          placeholder: '可选：话术转人工时接听的坐席',
          tooltip: '话术走到转人工节点时，依次转给其中空闲的坐席',
        }}
      />
      <Form.Item name="isEnabled" label="启用" valuePropName="checked">
        <Switch checkedChildren="启用" unCheckedChildren="停用" />
      </Form.Item>
    </FormModal>
  );
};
