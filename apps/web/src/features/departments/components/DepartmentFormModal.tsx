import type { DepartmentNode } from '@crm/contracts';
import { Form, Input, InputNumber } from 'antd';
import { DepartmentTreeSelect } from '../../../components/DepartmentTreeSelect';
import { FormModal } from '../../../components/FormModal';
import { useCreateDepartment, useEditDepartment } from '../api';

/** What the modal is opened for: a new department under `pid`, or an existing one. */
export type DepartmentFormTarget = { mode: 'create'; pid: number } | { mode: 'edit'; department: DepartmentNode };

type Values = { pid: number; name: string; sortNum: number };

type Props = { isOpen: boolean; target: DepartmentFormTarget | null; departments: DepartmentNode[]; onClose: () => void };

export const DepartmentFormModal = ({ isOpen, target, departments, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const create = useCreateDepartment();
  const edit = useEditDepartment();
  const isEdit = target?.mode === 'edit';
  const isPending = create.isPending || edit.isPending;

  const initialValues: Values =
    target?.mode === 'edit'
      ? { pid: target.department.pid, name: target.department.name, sortNum: target.department.sortNum }
      : { pid: target?.pid ?? 0, name: '', sortNum: 0 };

  const onSubmit = async (values: Values) => {
    if (target?.mode === 'edit') {
      await edit.mutateAsync({ ...values, cmDid: target.department.cmDid });
      return '保存成功';
    }
    await create.mutateAsync(values);
    return '添加成功';
  };

  return (
    <FormModal
      open={isOpen && target !== null}
      title={isEdit ? '编辑部门' : '添加部门'}
      name="departmentForm"
      form={form}
      initialValues={initialValues}
      isPending={isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Form.Item label="上级部门" name="pid" rules={[{ required: true, message: '请选择上级部门' }]}>
        <DepartmentTreeSelect
          departments={departments}
          withRoot
          blockedId={target?.mode === 'edit' ? target.department.cmDid : undefined}
        />
      </Form.Item>
      <Form.Item
        label="部门名称"
        name="name"
        rules={[
          { required: true, whitespace: true, message: '请输入部门名称' },
          { max: 30, message: '部门名称最多30个字符' },
        ]}
      >
        <Input placeholder="请输入部门名称" maxLength={30} showCount />
      </Form.Item>
      <Form.Item label="排序" name="sortNum" extra="数字越小越靠前">
        <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </FormModal>
  );
};
