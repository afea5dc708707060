import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { WORK_ORDER_LIMITS, type WorkType, workTypeSaveBody } from '@crm/contracts';
import { Button, Form, Input, InputNumber, Space, Switch, Typography } from 'antd';
import { FormModal } from '../../../components/FormModal';
import { zodRule } from '../../../components/formRules';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useSaveWorkType } from '../api';
import { stagesProblem } from './workOrderRules';

type StageValue = { id?: number; name: string; rollback: boolean };
type Values = { name: string; default_handler_id?: number; sla_hours?: number; stages: StageValue[] };

type Props = { isOpen: boolean; type: WorkType | null; onClose: () => void };

const { stagesMin, stagesMax, typeName, stageName, slaHoursMax } = WORK_ORDER_LIMITS;
const shape = workTypeSaveBody.shape;
/** The list's own rule (count and duplicate names, as the contract and the server say). */
const stagesRule = async (_: unknown, v?: StageValue[]) => {
  const problem = stagesProblem(v);
  if (problem) throw new Error(problem);
};

/**
 * 新建/编辑工单类型: name, default handler, SLA hours and the ordered stages (2–10), each with
 * 可回退 (from it the handler may go back). An existing stage keeps its id, so work orders in it stay.
 */
export const WorkTypeFormModal = ({ isOpen, type, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const save = useSaveWorkType();
  const initialValues: Values = type
    ? {
        name: type.name,
        default_handler_id: type.default_handler_id,
        sla_hours: type.sla_hours,
        stages: [...type.stages].sort((a, b) => a.sort - b.sort).map((s) => ({ id: s.id, name: s.name, rollback: s.rollback })),
      }
    : {
        name: '',
        sla_hours: 24,
        stages: [
          { name: '待处理', rollback: false },
          { name: '处理中', rollback: true },
          { name: '已完成', rollback: false },
        ],
      };

  const onSubmit = async (v: Values) => {
    await save.mutateAsync({
      ...(type ? { id: type.id } : {}),
      name: v.name.trim(),
      default_handler_id: v.default_handler_id ?? 0,
      sla_hours: v.sla_hours ?? 0,
      stages: v.stages.map((s) => ({ ...(s.id ? { id: s.id } : {}), name: s.name.trim(), rollback: !!s.rollback })),
    });
    return type ? '保存成功' : '添加成功';
  };

  return (
    <FormModal
      open={isOpen}
      title={type ? '编辑工单类型' : '新建工单类型'}
      name="workTypeForm"
      form={form}
      initialValues={initialValues}
      isPending={save.isPending}
      onSubmit={onSubmit}
      onClose={onClose}
      width={640}
    >
      <Form.Item
        label="类型名称"
        name="name"
        validateFirst
        rules={[{ required: true, whitespace: true, message: '请输入类型名称' }, zodRule(shape.name)]}
      >
        <Input placeholder="如：售后维修、安装预约" maxLength={typeName} showCount />
      </Form.Item>
      <Space size={16} style={{ display: 'flex' }} align="start">
        <Form.Item
          label="默认处理人"
          name="default_handler_id"
          rules={[{ required: true, message: '请选择默认处理人' }]}
          style={{ width: 280 }}
        >
          <StaffSearchSelect
            placeholder="请选择默认处理人"
            known={type ? [{ staff_id: type.default_handler_id, linkman: type.default_handler_name }] : []}
          />
        </Form.Item>
        <Form.Item
          label="处理时限"
          name="sla_hours"
          validateFirst
          rules={[{ required: true, message: '请输入处理时限' }, zodRule(shape.sla_hours)]}
          extra="新工单默认在创建后多少小时内处理完"
          style={{ width: 280 }}
        >
          <InputNumber min={1} max={slaHoursMax} precision={0} suffix="小时" style={{ width: '100%' }} />
        </Form.Item>
      </Space>
      <Typography.Text strong>处理阶段</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ margin: '4px 0 8px' }}>
        工单按顺序经过各阶段，到达最后一个阶段即为已完结；开启「可回退」的阶段，处理人可以退回到之前的阶段。共 {stagesMin}–
        {stagesMax} 个阶段。
      </Typography.Paragraph>
      <Form.List name="stages" rules={[{ validator: stagesRule }]}>
        {(fields, { add, remove, move }, { errors }) => (
          <>
            {fields.map((field, i) => (
              <Space key={field.key} align="baseline" style={{ display: 'flex', marginBottom: 4 }}>
                <Typography.Text type="secondary" style={{ width: 20, display: 'inline-block' }}>
                  {i + 1}
                </Typography.Text>
                <Form.Item name={[field.name, 'id']} hidden>
                  <Input />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'name']}
                  validateFirst
                  rules={[
                    { required: true, whitespace: true, message: '请输入阶段名称' },
                    zodRule(shape.stages.element.shape.name),
                  ]}
                  style={{ marginBottom: 8 }}
                >
                  <Input placeholder="阶段名称" maxLength={stageName} style={{ width: 240 }} aria-label={`阶段${i + 1}名称`} />
                </Form.Item>
                <Form.Item name={[field.name, 'rollback']} valuePropName="checked" style={{ marginBottom: 8 }}>
                  <Switch checkedChildren="可回退" unCheckedChildren="不可回退" aria-label={`阶段${i + 1}可回退`} />
                </Form.Item>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                  aria-label="上移"
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  disabled={i === fields.length - 1}
                  onClick={() => move(i, i + 1)}
                  aria-label="下移"
                />
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  disabled={fields.length <= stagesMin}
                  onClick={() => remove(field.name)}
                  aria-label="删除阶段"
                />
              </Space>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= stagesMax}
              onClick={() => add({ name: '', rollback: false })}
              style={{ width: 300 }}
            >
              添加阶段
            </Button>
            <Form.ErrorList errors={errors} />
          </>
        )}
      </Form.List>
    </FormModal>
  );
};
