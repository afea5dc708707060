import { WORK_ORDER_LIMITS, WORK_PRIORITY_LABEL, type WorkOrderDetail, workOrderCreateBody } from '@crm/contracts';
import { DatePicker, Form, Input, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { FormModal } from '../../../components/FormModal';
import { zodRule } from '../../../components/formRules';
import { formatMoney } from '../../../components/money';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { shanghaiNow } from '../../../components/shanghaiTime';
import type { StoredFile } from '../../../components/TemplateForm/control-values';
import { FileListUpload } from '../../../components/TemplateForm/FileListUpload';
import { useOrderList } from '../../orders/api';
import { useCreateWorkOrder, useEditWorkOrder, useWorkTypes } from '../api';
import { StageChain } from './StageChain';

type Values = {
  workOrderName: string;
  type_id?: number;
  priority: 1 | 2 | 3 | 4;
  handler_id?: number;
  due_at?: Dayjs | null;
  description?: string;
  order_id?: number;
  files?: StoredFile[];
};

/** A new work order of a customer, or the edit of one (name, priority, due time, description). */
type Props = { open: boolean; onClose: () => void } & (
  | { mode: 'create'; customerId: number; onCreated?: (id: number) => void }
  | { mode: 'edit'; detail: WorkOrderDetail }
);

const PRIORITY_OPTIONS = Object.entries(WORK_PRIORITY_LABEL).map(([value, label]) => ({ value: Number(value), label }));
const DUE_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const shape = workOrderCreateBody.shape;

export const WorkOrderFormModal = (props: Props) => {
  const { open, onClose } = props;
  const isCreate = props.mode === 'create';
  const [form] = Form.useForm<Values>();
  const create = useCreateWorkOrder();
  const edit = useEditWorkOrder();
  const types = useWorkTypes(open && isCreate);
  const orders = useOrderList({ customer_id: isCreate ? props.customerId : 0, page: 1, limit: 200 }, open && isCreate);
  const typeId = Form.useWatch('type_id', form);
  const type = types.data?.find((t) => t.id === typeId);

  const initialValues: Partial<Values> =
    props.mode === 'edit'
      ? {
          workOrderName: props.detail.workOrderName,
          priority: props.detail.priority as Values['priority'],
          due_at: props.detail.due_at ? dayjs(props.detail.due_at) : null,
          description: props.detail.description,
        }
      : { priority: 2, files: [] };

  /** Choosing a type prefills its default handler and a due time of now + its SLA (the picker holds Shanghai wall-clock time). */
  const onTypeChange = (id: number) => {
    const t = types.data?.find((x) => x.id === id);
    if (!t) return;
    form.setFieldsValue({ handler_id: t.default_handler_id, due_at: shanghaiNow().add(t.sla_hours, 'hour').second(0) });
  };

  const onSubmit = async (v: Values) => {
    const common = {
      workOrderName: v.workOrderName.trim(),
      priority: v.priority,
      description: (v.description ?? '').trim(),
    };
    if (props.mode === 'edit') {
      await edit.mutateAsync({ ...common, id: props.detail.id, due_at: v.due_at?.format(DUE_FORMAT) ?? '' });
      return '保存成功';
    }
    const res = await create.mutateAsync({
      ...common,
      customer_id: props.customerId,
      type_id: v.type_id,
      handler_id: v.handler_id,
      due_at: v.due_at ? v.due_at.format(DUE_FORMAT) : undefined,
      order_id: v.order_id,
      files: (v.files ?? []).map((f) => f.id),
    });
    props.onCreated?.(res.id);
    return '创建成功';
  };

  const orderOptions = (orders.data?.list ?? []).map((o) => ({
    value: o.id,
    label: `${o.product_names || '订单'} · ${formatMoney(o.cost_price)}元 · ${o.created_at.slice(0, 10)}`,
  }));

  return (
    <FormModal<Values>
      open={open}
      title={isCreate ? '新建工单' : '编辑工单'}
      name="workOrderForm"
      form={form}
      initialValues={initialValues}
      isPending={create.isPending || edit.isPending}
      onSubmit={onSubmit}
      onClose={onClose}
      width={680}
    >
      <Form.Item
        label="工单名称"
        name="workOrderName"
        validateFirst
        rules={[{ required: true, whitespace: true, message: '请输入工单名称' }, zodRule(shape.workOrderName)]}
      >
        <Input placeholder="一句话说明要处理的事" maxLength={WORK_ORDER_LIMITS.name} showCount />
      </Form.Item>
      {isCreate && (
        <Form.Item label="工单类型" name="type_id" rules={[{ required: true, message: '请选择工单类型' }]}>
          <Select
            placeholder="请选择工单类型"
            loading={types.isLoading}
            options={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            onChange={onTypeChange}
            notFoundContent="暂无工单类型，请先在「工单设置」中添加"
          />
        </Form.Item>
      )}
      {isCreate && type && (
        <div style={{ margin: '-12px 0 16px' }}>
          <Typography.Text type="secondary" style={{ marginRight: 8 }}>
            处理阶段：
          </Typography.Text>
          <StageChain stages={type.stages} />
        </div>
      )}
      <Space size={16} style={{ display: 'flex' }} align="start" wrap>
        <Form.Item label="优先级" name="priority" rules={[{ required: true, message: '请选择优先级' }]} style={{ width: 140 }}>
          <Select options={PRIORITY_OPTIONS} />
        </Form.Item>
        {isCreate && (
          <Form.Item
            label="处理人"
            name="handler_id"
            rules={[{ required: true, message: '请选择处理人' }]}
            style={{ width: 200 }}
          >
            <StaffSearchSelect
              placeholder="请选择处理人"
              known={type ? [{ staff_id: type.default_handler_id, linkman: type.default_handler_name }] : []}
            />
          </Form.Item>
        )}
        <Form.Item label="截止时间" name="due_at" rules={[{ required: true, message: '请选择截止时间' }]} style={{ width: 240 }}>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            placeholder="请选择截止时间"
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Space>
      <Form.Item label="描述" name="description" rules={[zodRule(shape.description)]}>
        <Input.TextArea
          rows={4}
          maxLength={WORK_ORDER_LIMITS.description}
          showCount
          placeholder="问题现象、客户诉求、期望结果等"
        />
      </Form.Item>
      {isCreate && (
        <Form.Item label="关联订单" name="order_id">
          <Select
            allowClear
            placeholder="可选：选择该客户的订单"
            loading={orders.isLoading}
            options={orderOptions}
            notFoundContent="该客户暂无订单"
          />
        </Form.Item>
      )}
      {isCreate && (
        <Form.Item label="附件" name="files">
          <FileListUpload />
        </Form.Item>
      )}
    </FormModal>
  );
};
