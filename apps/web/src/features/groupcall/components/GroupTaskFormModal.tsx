import type { GroupcallCreateBody } from '@crm/contracts';
import { Checkbox, Col, Form, type FormInstance, Input, InputNumber, Row, Select, Space, TimePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState } from 'react';
import { FormModal } from '../../../components/FormModal';
import { useCompanyHours } from '../../calltasks/api';
import { TaskWindowSummary } from '../../calltasks/components/TaskWindow';
import { useStaffOptions } from '../../staff/api';
import { useCreateGroupTask } from '../api';

type Values = {
  name: string;
  numbersText: string;
  cmSidInfo: number[];
  maxLines: number;
  abandonPercent: number;
  cmWeeks: number[];
  times: [Dayjs, Dayjs];
  maxAttempts: number;
  redialMinutes: number;
  wrapUpSeconds: number;
};

const WEEKS = ['一', '二', '三', '四', '五', '六', '日'].map((d, i) => ({ label: `周${d}`, value: i + 1 }));

/** The numbers pasted one a line (or separated by commas / spaces). */
export const numbersOf = (text: string) => [
  ...new Set(
    text
      .split(/[\s,，;；]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/** The window the task dials in, in words, with the company's hours (issue 23). */
const GroupWindowSummary = ({ form }: { form: FormInstance<Values> }) => {
  const hours = useCompanyHours();
  const weeks = Form.useWatch('cmWeeks', form) ?? [];
  const times = Form.useWatch('times', form);
  const ranges = times?.[0] && times[1] ? [{ start: times[0].format('HH:mm'), end: times[1].format('HH:mm') }] : [];
  return <TaskWindowSummary weeks={weeks} times={ranges} hours={hours.data} />;
};

/** 新建群呼任务: name, numbers (pasted), agents, line limit, abandon target, days and time range, redial. */
export const GroupTaskFormModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const [form] = Form.useForm<Values>();
  const [linkman, setLinkman] = useState('');
  const staff = useStaffOptions(linkman, open);
  const create = useCreateGroupTask();
  const submit = async (v: Values) => {
    const body: GroupcallCreateBody = {
      name: v.name,
      numbers: numbersOf(v.numbersText),
      cmSidInfo: v.cmSidInfo,
      maxLines: v.maxLines,
      abandonTarget: Math.round(v.abandonPercent * 10),
      cmWeeks: v.cmWeeks,
      cmTimes: [{ start: v.times[0].format('HH:mm'), end: v.times[1].format('HH:mm') }],
      maxAttempts: v.maxAttempts,
      redialMinutes: v.redialMinutes,
      wrapUpSeconds: v.wrapUpSeconds,
      blackState: 1,
      customerInfoState: 0,
      failPoolId: 0,
      failReasonId: 0,
    };
    await create.mutateAsync(body);
    return '添加成功';
  };
  return (
    <FormModal
      open={open}
      title="新建群呼任务"
      name="groupTask"
      // wide enough for the five numbers in one row: the window fits a 768 px high screen
      width={720}
      form={form}
      isPending={create.isPending}
      onSubmit={submit}
      onClose={onClose}
      initialValues={{
        maxLines: 10,
        abandonPercent: 3,
        cmWeeks: [1, 2, 3, 4, 5],
        times: [dayjs('09:00', 'HH:mm'), dayjs('18:00', 'HH:mm')],
        maxAttempts: 2,
        redialMinutes: 30,
        wrapUpSeconds: 10,
      }}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="name" label="任务名称" rules={[{ required: true, whitespace: true, message: '请输入任务名称' }]}>
            <Input maxLength={50} placeholder="请输入任务名称" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="cmSidInfo" label="坐席" rules={[{ required: true, message: '请选择坐席' }]}>
            <Select
              mode="multiple"
              showSearch
              filterOption={false}
              onSearch={setLinkman}
              placeholder="请选择坐席"
              options={(staff.data ?? []).map((s) => ({ label: s.linkman, value: s.staff_id }))}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="numbersText" label="号码" rules={[{ required: true, whitespace: true, message: '请输入号码' }]}>
        <Input.TextArea rows={3} placeholder="每行一个号码" />
      </Form.Item>
      <Space size="large" wrap>
        <Form.Item name="maxLines" label="线路上限" rules={[{ required: true, message: '请输入线路上限' }]}>
          <InputNumber min={1} max={100} precision={0} />
        </Form.Item>
        <Form.Item name="abandonPercent" label="放弃率目标(%)" rules={[{ required: true, message: '请输入放弃率目标' }]}>
          <InputNumber min={0.1} max={10} step={0.1} precision={1} />
        </Form.Item>
        <Form.Item name="maxAttempts" label="最多拨打次数">
          <InputNumber min={1} max={5} precision={0} />
        </Form.Item>
        <Form.Item name="redialMinutes" label="重拨间隔(分钟)">
          <InputNumber min={1} max={1440} precision={0} />
        </Form.Item>
        <Form.Item name="wrapUpSeconds" label="整理时间(秒)">
          <InputNumber min={0} max={600} precision={0} />
        </Form.Item>
      </Space>
      <Form.Item name="cmWeeks" label="外呼日期" rules={[{ required: true, message: '请选择外呼日期' }]}>
        <Checkbox.Group options={WEEKS} />
      </Form.Item>
      <Form.Item
        name="times"
        label="外呼时段"
        rules={[{ required: true, message: '请选择外呼时段' }]}
        extra={<GroupWindowSummary form={form} />}
      >
        <TimePicker.RangePicker format="HH:mm" minuteStep={5} />
      </Form.Item>
    </FormModal>
  );
};
