import {
  AICALL_LIMITS,
  type AicallCreateBody,
  type AicallEditBody,
  type AicallRow,
  ASSIGN_RULE_LABEL,
  ASSIGN_RULES,
  type AssignRule,
  GRADE_LABEL,
} from '@crm/contracts';
import { Col, Form, InputNumber, Row, Select } from 'antd';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { type TaskFormKind, TaskFormModal } from '../../calltasks/components/TaskFormModal';
import { createBodyOf, editBodyOf, type TaskFormValues } from '../../calltasks/components/taskForm';
import { AgentsField } from '../../calltasks/components/taskFormFields';
import { useCreateAicall, useEditAicall, usePublishedFlows } from '../api';

type AiValues = { flowId?: number; maxLines: number; assignGrades: ('A' | 'B' | 'C' | 'D')[]; assignRule: AssignRule };

const ASSIGN_GRADE_OPTIONS = (['A', 'B', 'C', 'D'] as const).map((g) => ({ value: g, label: GRADE_LABEL[g] }));
const ASSIGN_RULE_OPTIONS = ASSIGN_RULES.map((r) => ({ value: r, label: ASSIGN_RULE_LABEL[r] }));

const valuesOfRow = (row: AicallRow): AiValues => ({
  flowId: row.flowId,
  maxLines: row.maxLines,
  assignGrades: row.assignGrades as AiValues['assignGrades'],
  assignRule: row.assignRule as AssignRule,
});
const DEFAULTS: AiValues & { customerInfoState: boolean } = {
  maxLines: 5,
  assignGrades: ['A', 'B'],
  assignRule: 'creator',
  customerInfoState: true,
};

const aiOf = (v: Record<string, unknown>) => {
  const ai = v as unknown as AiValues;
  return { flowId: ai.flowId as number, maxLines: ai.maxLines, assignGrades: ai.assignGrades, assignRule: ai.assignRule };
};

/** 机器人设置: the published 话术, lines, which grades go into the CRM and to whom, and who takes 转人工. */
const BotFields = ({ row }: { row: AicallRow | null }) => {
  const flows = usePublishedFlows();
  const options = useMemo(() => {
    const list = (flows.data ?? []).map((f) => ({ value: f.id, label: `${f.name}（v${f.version}）` }));
    // a task's flow that is no longer published still reads by its name
    if (row && !list.some((o) => o.value === row.flowId)) list.unshift({ value: row.flowId, label: row.flowName });
    return list;
  }, [flows.data, row]);
  return (
    <>
      <Row gutter={16}>
        <Col span={16}>
          <Form.Item
            name="flowId"
            label="话术"
            rules={[{ required: true, message: '请选择话术' }]}
            extra={
              flows.data && flows.data.length === 0 ? (
                <span>
                  暂无已发布的话术，请先到<Link to="/aicall/flow">话术管理</Link>设计并发布
                </span>
              ) : (
                '每通电话使用该话术开始时的最新发布版本'
              )
            }
          >
            <Select
              placeholder="选择已发布的话术"
              options={options}
              loading={flows.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="maxLines"
            label="并发线路数"
            tooltip="机器人同时拨打的最多通话数"
            rules={[
              {
                required: true,
                type: 'integer',
                min: 1,
                max: AICALL_LIMITS.maxLines,
                message: `并发线路数为1-${AICALL_LIMITS.maxLines}`,
              },
            ]}
          >
            <InputNumber min={1} max={AICALL_LIMITS.maxLines} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            name="assignGrades"
            label="意向等级分配"
            tooltip="评为所选等级的客户进入客户管理，写入AI跟进记录，并按分配规则分配"
          >
            <Select mode="multiple" allowClear placeholder="不分配（仅记录通话）" options={ASSIGN_GRADE_OPTIONS} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="assignRule" label="分配规则" rules={[{ required: true, message: '请选择分配规则' }]}>
            <Select options={ASSIGN_RULE_OPTIONS} />
          </Form.Item>
        </Col>
      </Row>
      <AgentsField
        agents={{
          label: '转人工坐席',
          isRequired: false,
          placeholder: '可选：话术转人工时接听的坐席',
          tooltip: '话术走到转人工节点时，依次转给其中空闲的坐席；不选则不转人工',
        }}
      />
    </>
  );
};

/** 新建 / 编辑AI外呼任务: the seat-task form with the bot's section (TaskFormModal of kind AI). */
export const AiTaskFormModal = ({ row, onClose }: { row: AicallRow | null; onClose: () => void }) => {
  const create = useCreateAicall();
  const edit = useEditAicall();
  const kind: TaskFormKind = {
    noun: 'AI外呼任务',
    section: { title: '机器人设置', content: <BotFields row={row} /> },
    initialValues: row ? valuesOfRow(row) : DEFAULTS,
    customerInfoTip: '开启后，还不是客户的号码评为分配等级时建为客户',
    hasWrapUp: false,
    save: (v: TaskFormValues & Record<string, unknown>, saved) =>
      saved
        ? edit.mutateAsync({ ...editBodyOf(saved.cmStid, v), ...aiOf(v) } as AicallEditBody)
        : create.mutateAsync({ ...createBodyOf(v), ...aiOf(v) } as AicallCreateBody),
  };
  return <TaskFormModal isOpen row={row} onClose={onClose} kind={kind} />;
};
