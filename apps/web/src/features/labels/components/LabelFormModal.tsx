import { type Label, type LabelGroup, labelBody } from '@crm/contracts';
import { Form, Input, InputNumber, Select } from 'antd';
import { FormModal } from '../../../components/FormModal';
import { zodRule } from '../../../components/formRules';
import { useCreateLabel, useEditLabel } from '../api';

/**
 * What the modal is opened for: a new group, a new tag in group `pid`, or an existing
 * group or tag (a group stays a group and a tag stays a tag; a tag may move to another group).
 */
export type LabelFormTarget =
  | { mode: 'createGroup'; sortNum: number }
  | { mode: 'createTag'; pid: number; sortNum: number }
  | { mode: 'edit'; label: Label };

type Values = { pid: number; name: string; sortNum: number };

type Props = { isOpen: boolean; target: LabelFormTarget | null; groups: LabelGroup[]; onClose: () => void };

const initialValuesOf = (target: LabelFormTarget | null): Values => {
  if (target?.mode === 'edit') return { pid: target.label.pid, name: target.label.name, sortNum: target.label.sortNum };
  if (target?.mode === 'createTag') return { pid: target.pid, name: '', sortNum: target.sortNum };
  return { pid: 0, name: '', sortNum: target?.sortNum ?? 0 };
};

/** Add or edit a tag group or a tag: name (contract: required, at most 20 characters), group and order. */
export const LabelFormModal = ({ isOpen, target, groups, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const create = useCreateLabel();
  const edit = useEditLabel();
  const isEdit = target?.mode === 'edit';
  const isPending = create.isPending || edit.isPending;
  const initialValues = initialValuesOf(target);
  const isGroup = initialValues.pid === 0;
  const noun = isGroup ? '分组' : '标签';

  const onSubmit = async (values: Values) => {
    const body = { pid: isGroup ? 0 : values.pid, name: values.name.trim(), sortNum: values.sortNum ?? 0 };
    if (target?.mode === 'edit') {
      const { cmClid, actionState } = target.label;
      await edit.mutateAsync({ ...body, cmClid, actionState: actionState === 1 ? 1 : 0 });
      return '操作成功';
    }
    await create.mutateAsync(body);
    return '添加成功';
  };

  return (
    <FormModal
      open={isOpen && target !== null}
      title={`${isEdit ? '编辑' : '添加'}${noun}`}
      name="labelForm"
      form={form}
      initialValues={initialValues}
      isPending={isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {!isGroup && (
        <Form.Item label="所属分组" name="pid" rules={[{ required: true, message: '请选择所属分组' }]}>
          <Select
            placeholder="请选择所属分组"
            options={groups.map((g) => ({ value: g.cmClid, label: g.name }))}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
      )}
      <Form.Item
        label={`${noun}名称`}
        name="name"
        validateFirst
        rules={[{ required: true, whitespace: true, message: `请输入${noun}名称` }, zodRule(labelBody.shape.name)]}
      >
        <Input placeholder={isGroup ? '如：客户意向、客户特征' : '如：高意向、决策人'} maxLength={20} showCount />
      </Form.Item>
      <Form.Item label="排序" name="sortNum" extra={`数字越小越靠前，决定${noun}在选择标签时的先后顺序`}>
        <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </FormModal>
  );
};
