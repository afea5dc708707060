/** The sections of the call-task form: 外呼时段, the task's agents, the failed-call rules, a section title. */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CALLTASK_LIMITS, DISCARD_OTHER } from '@crm/contracts';
import { Button, Col, Divider, Form, type FormInstance, Row, Select, Space, TimePicker } from 'antd';
import { useState } from 'react';
import { useBaseDiscardReasons, useVisiblePools } from '../../pools/api';
import { useStaffOptions } from '../../staff/api';
import { TaskWindowSummary } from './TaskWindow';
import { type RangeValue, type TaskFormValues, timesRefusal, toRanges } from './taskForm';

export const Section = ({ title }: { title: string }) => (
  <Divider titlePlacement="start" style={{ marginTop: 8 }}>
    {title}
  </Divider>
);

/**
 * The window the task will dial in, always in sight at the foot of the form (issue 23: the defaults,
 * 周一至周五 09:00–12:00 and 14:00–18:00, sat below the fold and a task started at night waited unseen).
 */
export const WindowFooter = ({ form, hours }: { form: FormInstance<TaskFormValues>; hours?: { from: string; to: string } }) => {
  const weeks = Form.useWatch('cmWeeks', { form, preserve: true }) ?? [];
  const times = Form.useWatch('cmTimes', { form, preserve: true }) ?? [];
  return <TaskWindowSummary weeks={weeks} times={toRanges(times)} hours={hours} />;
};

/** 外呼时段: 1–4 HH:mm ranges, checked for overlap and against the company's hours. */
export const TimeRangesField = ({ hours }: { hours?: { from: string; to: string } }) => (
  <Form.List
    name="cmTimes"
    rules={[
      {
        validator: async (_, value: RangeValue[]) => {
          const refusal = timesRefusal(value ?? [], hours);
          if (refusal) throw new Error(refusal);
        },
      },
    ]}
  >
    {(fields, { add, remove }, { errors }) => (
      <Form.Item
        label="外呼时段"
        required
        extra={hours ? `公司允许的外呼时间：${hours.from}–${hours.to}（北京时间），任务时段须在其内` : undefined}
      >
        <Space orientation="vertical" style={{ display: 'flex' }}>
          {fields.map((f, i) => (
            <Space key={f.key}>
              <Form.Item name={f.name} noStyle>
                <TimePicker.RangePicker format="HH:mm" minuteStep={5} order aria-label={`外呼时段${i + 1}`} />
              </Form.Item>
              {fields.length > 1 && (
                <Button type="text" icon={<DeleteOutlined />} aria-label="删除时段" onClick={() => remove(f.name)} />
              )}
            </Space>
          ))}
          {fields.length < CALLTASK_LIMITS.timeRanges && (
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add(null)}>
              添加时段
            </Button>
          )}
          <Form.ErrorList errors={errors} />
        </Space>
      </Form.Item>
    )}
  </Form.List>
);

type AgentsProps = { label: string; isRequired: boolean; placeholder: string; tooltip?: string };
const SEAT_AGENTS: AgentsProps = { label: '坐席', isRequired: true, placeholder: '选择做任务的坐席' };

/** The task's agents (cmSidInfo): who works a seat task, or who takes an AI task's 转人工. */
export const AgentsField = ({ agents = SEAT_AGENTS }: { agents?: AgentsProps }) => {
  const [linkman, setLinkman] = useState('');
  const staff = useStaffOptions(linkman);
  return (
    <Form.Item
      name="cmSidInfo"
      label={agents.label}
      tooltip={agents.tooltip || undefined}
      rules={[
        { required: agents.isRequired, type: 'array', min: agents.isRequired ? 1 : 0, message: `请选择${agents.label}` },
        { type: 'array', max: CALLTASK_LIMITS.agents, message: `最多选择${CALLTASK_LIMITS.agents}个坐席` },
      ]}
    >
      <Select
        mode="multiple"
        allowClear
        placeholder={agents.placeholder}
        showSearch={{ filterOption: false, onSearch: setLinkman }}
        options={(staff.data ?? []).map((s) => ({ value: s.staff_id, label: s.linkman }))}
        maxTagCount="responsive"
      />
    </Form.Item>
  );
};

export const FailRuleFields = () => {
  const pools = useVisiblePools();
  const reasons = useBaseDiscardReasons();
  const form = Form.useFormInstance<TaskFormValues>();
  const poolId = Form.useWatch('failPoolId', form);
  return (
    <Row gutter={16}>
      <Col span={12}>
        <Form.Item name="failPoolId" label="最后一次未接通" tooltip="达到最多拨打次数仍未接通时，客户放入所选公海">
          <Select
            options={[
              { value: 0, label: '客户保持不变' },
              ...(pools.data?.list ?? []).map((p) => ({ value: p.cmHsid, label: `放入公海：${p.name}` })),
            ]}
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="failReasonId"
          label="丢弃原因"
          rules={[{ required: Boolean(poolId), message: '请选择丢弃原因' }]}
          hidden={!poolId}
        >
          <Select
            options={[
              ...(reasons.data?.list ?? []).map((r) => ({ value: r.cmCdid, label: r.name })),
              { value: DISCARD_OTHER, label: '其他（任务外呼未接通）' },
            ]}
          />
        </Form.Item>
      </Col>
    </Row>
  );
};
