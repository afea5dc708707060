import { CALLTASK_LIMITS, type CalltaskRow } from '@crm/contracts';
import { App, Checkbox, Col, Flex, Form, Input, InputNumber, Modal, Row, Space, Switch, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useButtonLock } from '../../../components/useButtonLock';
import { useCompanyHours, useCreateCalltask, useEditCalltask } from '../api';
import { CustomerSourceField } from './CustomerSourceField';
import {
  createBodyOf,
  DEFAULT_VALUES,
  editBodyOf,
  MAX_NUMBERS,
  parseNumberLines,
  type SourceKind,
  type TaskFormValues,
  valuesOfRow,
  WEEK_OPTIONS,
} from './taskForm';
import { AgentsField, FailRuleFields, Section, TimeRangesField, WindowFooter } from './taskFormFields';

/**
 * Another kind of call task this form serves (AI外呼任务, issue 16): its name, its own section and
 * values, and its own save. The customer source, days, hours and redial stay the seat task's.
 */
export type TaskFormKind = {
  /** 坐席任务 when absent, e.g. AI外呼任务 */
  noun: string;
  section: { title: string; content: ReactNode };
  /** the kind's own fields (create), or the row's (edit) */
  initialValues: Record<string, unknown>;
  customerInfoTip: string;
  /** 整理时间 only makes sense for people */
  hasWrapUp: boolean;
  /** saves the validated values (the kind's fields included); a thrown error keeps the window open */
  save: (values: TaskFormValues & Record<string, unknown>, row: CalltaskRow | null) => Promise<unknown>;
};

type Props = {
  isOpen: boolean;
  /** the task to edit; null creates one */
  row: CalltaskRow | null;
  onClose: () => void;
  kind?: TaskFormKind;
};

/** 新建 / 编辑坐席任务: a wide window in sections; an edit keeps the task's numbers. */
export const TaskFormModal = ({ isOpen, row, onClose, kind }: Props) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<TaskFormValues>();
  const [source, setSource] = useState<SourceKind>('filter');
  const hours = useCompanyHours();
  const create = useCreateCalltask();
  const edit = useEditCalltask();
  const isEdit = row !== null;

  const sourceRefusal = (v: TaskFormValues): string | null => {
    if (source === 'select' && v.cmCtids.length === 0) return '请选择客户';
    if (source === 'import') {
      const n = parseNumberLines(v.numbersText).numbers.length;
      if (n === 0) return '请导入号码';
      if (n > MAX_NUMBERS) return `最多导入${MAX_NUMBERS}个号码`;
    }
    return null;
  };

  const [submit, isLocked] = useButtonLock(async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const all = { ...form.getFieldsValue(true), source } as TaskFormValues;
    if (!isEdit) {
      const refusal = sourceRefusal(all);
      if (refusal) {
        message.error(refusal);
        return;
      }
    }
    try {
      if (kind) await kind.save(all, row);
      else if (row) await edit.mutateAsync(editBodyOf(row.cmStid, all));
      else await create.mutateAsync(createBodyOf(all));
    } catch {
      return;
    }
    message.success(isEdit ? '保存成功' : '添加成功');
    onClose();
  });

  return (
    <Modal
      title={`${isEdit ? '编辑' : '新建'}${kind?.noun ?? '坐席任务'}`}
      open={isOpen}
      onCancel={onClose}
      onOk={() => submit()}
      okText={isEdit ? '保存' : '创建任务'}
      cancelText="取消"
      confirmLoading={isLocked || create.isPending || edit.isPending}
      footer={(buttons) => (
        <Flex justify="space-between" align="center" gap={12}>
          <WindowFooter form={form} hours={hours.data} />
          <Space>{buttons}</Space>
        </Flex>
      )}
      width={880}
      destroyOnHidden
      styles={{ body: { maxHeight: '70vh', overflowY: 'auto', paddingRight: 8 } }}
    >
      <Form
        form={form}
        preserve
        layout="vertical"
        initialValues={{ ...(row ? valuesOfRow(row) : DEFAULT_VALUES), ...kind?.initialValues }}
        aria-label={kind?.noun ?? '坐席任务'}
      >
        <Section title="基本信息" />
        <Form.Item
          name="name"
          label="任务名称"
          rules={[
            { required: true, whitespace: true, message: '请输入任务名称' },
            { max: CALLTASK_LIMITS.name, message: `任务名称最多${CALLTASK_LIMITS.name}个字符` },
          ]}
        >
          <Input maxLength={CALLTASK_LIMITS.name} showCount placeholder="例如：11月老客户回访" />
        </Form.Item>
        {kind && <Section title={kind.section.title} />}
        {kind?.section.content}
        <Section title="客户来源" />
        {isEdit ? (
          <Typography.Paragraph type="secondary">已导入 {row.totalNum} 个号码；编辑不改变任务的号码。</Typography.Paragraph>
        ) : (
          <>
            <CustomerSourceField source={source} onSource={setSource} />
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item
                  name="customerInfoState"
                  label="无客户的号码"
                  valuePropName="checked"
                  tooltip={kind?.customerInfoTip ?? '开启后，坐席接通的号码如果还不是客户，将成为该坐席的客户'}
                >
                  <Switch checkedChildren="接通后建为客户" unCheckedChildren="不建客户" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="blackState"
                  label="过滤黑名单"
                  valuePropName="checked"
                  tooltip="开启后，黑名单号码导入时跳过；拨打时命中黑名单的客户放入公海（原因：黑名单）"
                >
                  <Switch checkedChildren="过滤" unCheckedChildren="不过滤" />
                </Form.Item>
              </Col>
            </Row>
          </>
        )}
        <Section title={kind ? '外呼时间' : '坐席与外呼时间'} />
        {!kind && <AgentsField />}
        <Form.Item name="cmWeeks" label="外呼日期" rules={[{ required: true, type: 'array', min: 1, message: '请选择外呼日期' }]}>
          <Checkbox.Group options={WEEK_OPTIONS} />
        </Form.Item>
        <TimeRangesField hours={hours.data} />
        <Section title="外呼规则" />
        <Row gutter={16}>
          <Col span={kind?.hasWrapUp === false ? 12 : 8}>
            <Form.Item
              name="redialMinutes"
              label="未接通重拨间隔（分钟）"
              rules={[{ required: true, type: 'integer', min: 1, max: 1440, message: '重拨间隔为1-1440分钟' }]}
            >
              <InputNumber min={1} max={1440} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={kind?.hasWrapUp === false ? 12 : 8}>
            <Form.Item
              name="maxAttempts"
              label="最多拨打次数"
              rules={[{ required: true, type: 'integer', min: 1, max: 5, message: '最多拨打次数为1-5次' }]}
            >
              <InputNumber min={1} max={5} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          {kind?.hasWrapUp !== false && (
            <Col span={8}>
              <Form.Item
                name="wrapUpSeconds"
                label="整理时间（秒）"
                tooltip="每通电话结束后，经过整理时间再拨下一个号码"
                rules={[{ required: true, type: 'integer', min: 0, max: 600, message: '整理时间为0-600秒' }]}
              >
                <InputNumber min={0} max={600} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          )}
        </Row>
        <FailRuleFields />
      </Form>
    </Modal>
  );
};
