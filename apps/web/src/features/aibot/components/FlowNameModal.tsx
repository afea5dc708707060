import { AIBOT_LIMITS, type FlowRow } from '@crm/contracts';
import { Form, Input } from 'antd';
import { FormModal } from '../../../components/FormModal';
import { requiredRule } from '../../../components/formRules';
import { useCopyFlow, useCreateFlow } from '../api';

type Values = { name: string; remark?: string };
type Props = { open: boolean; copyOf: FlowRow | null; onClose: () => void; onCreated: (id: number) => void };

/** 新建话术 (name, remark; the server seeds a starter flow) or 复制话术 under a new name. */
export const FlowNameModal = ({ open, copyOf, onClose, onCreated }: Props) => {
  const [form] = Form.useForm<Values>();
  const create = useCreateFlow();
  const copy = useCopyFlow();
  const isCopy = copyOf !== null;
  return (
    <FormModal<Values>
      open={open}
      title={isCopy ? '复制话术' : '新建话术'}
      name="aibotFlow"
      form={form}
      initialValues={isCopy ? { name: `${copyOf.name}-副本`.slice(0, AIBOT_LIMITS.flowName) } : {}}
      isPending={create.isPending || copy.isPending}
      onSubmit={async (v) => {
        if (isCopy) {
          await copy.mutateAsync({ id: copyOf.id, name: v.name.trim() });
          return '复制成功';
        }
        const res = await create.mutateAsync({ name: v.name.trim(), remark: v.remark?.trim() ?? '' });
        if (res?.id) onCreated(res.id);
        return '创建成功';
      }}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label="话术名称"
        rules={[requiredRule('请输入话术名称'), { whitespace: true, message: '请输入话术名称' }]}
      >
        <Input maxLength={AIBOT_LIMITS.flowName} showCount placeholder="如：教育课程邀约" />
      </Form.Item>
      {!isCopy && (
        <Form.Item name="remark" label="备注">
          <Input.TextArea maxLength={AIBOT_LIMITS.remark} showCount rows={3} placeholder="话术用途、适用客户等" />
        </Form.Item>
      )}
    </FormModal>
  );
};
