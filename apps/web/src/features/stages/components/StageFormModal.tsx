import { type Stage, stageBody } from '@crm/contracts';
import { Form, Input, InputNumber } from 'antd';
import { FormModal } from '../../../components/FormModal';
import { zodRule } from '../../../components/formRules';
import { useCreateStage, useEditStage } from '../api';

/** What the modal is opened for: a new stage, or an existing one. */
export type StageFormTarget = { mode: 'create'; sortNum: number } | { mode: 'edit'; stage: Stage };

type Values = { name: string; sortNum: number };

type Props = { isOpen: boolean; target: StageFormTarget | null; onClose: () => void };

/** Add or edit a stage: name (contract: required, at most 20 characters) and order. */
export const StageFormModal = ({ isOpen, target, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const create = useCreateStage();
  const edit = useEditStage();
  const isEdit = target?.mode === 'edit';
  const isPending = create.isPending || edit.isPending;

  const initialValues: Values =
    target?.mode === 'edit'
      ? { name: target.stage.name, sortNum: target.stage.sortNum }
      : { name: '', sortNum: target?.sortNum ?? 0 };

  const onSubmit = async (values: Values) => {
    const body = { name: values.name.trim(), sortNum: values.sortNum ?? 0 };
    if (target?.mode === 'edit') {
      const { cmNid, actionState } = target.stage;
      await edit.mutateAsync({ ...body, cmNid, actionState: actionState === 1 ? 1 : 0 });
      return '操作成功';
    }
    await create.mutateAsync(body);
    return '添加成功';
  };

  return (
    <FormModal
      open={isOpen && target !== null}
      title={isEdit ? '编辑阶段' : '添加阶段'}
      name="stageForm"
      form={form}
      initialValues={initialValues}
      isPending={isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Form.Item
        label="阶段名称"
        name="name"
        validateFirst
        rules={[{ required: true, whitespace: true, message: '请输入阶段名称' }, zodRule(stageBody.shape.name)]}
      >
        <Input placeholder="如：初步接触、方案报价" maxLength={20} showCount />
      </Form.Item>
      <Form.Item label="排序" name="sortNum" extra="数字越小越靠前，决定阶段在客户跟进中的先后顺序">
        <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </FormModal>
  );
};
