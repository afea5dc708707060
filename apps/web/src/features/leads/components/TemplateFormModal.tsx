import { LEAD_LIMITS, type LeadFilters } from '@crm/contracts';
import { App, Form, Input, Modal } from 'antd';
import { useButtonLock } from '../../../components/useButtonLock';
import { useCreateTemplate, useEditTemplate } from '../api';
import { LeadFilterForm } from './LeadFilterForm';
import { type LeadFilterValues, rangeProblem, toFilterValues, toLeadFilters } from './leadFilters';

export type TemplateTarget = { id?: number; name: string; filters: LeadFilters };

type Props = { target: TemplateTarget | null; onClose: () => void; createTitle?: string };

/** 新建 / 编辑 / 保存为 an industry template: a name and the 找线索 filters it runs with. */
export const TemplateFormModal = ({ target, onClose, createTitle = '新建模板' }: Props) => {
  const { message } = App.useApp();
  const [nameForm] = Form.useForm<{ name: string }>();
  const [filterForm] = Form.useForm<LeadFilterValues>();
  const create = useCreateTemplate();
  const edit = useEditTemplate();
  const isEdit = target?.id !== undefined;

  const [submit, isLocked] = useButtonLock(async () => {
    let name: string;
    try {
      ({ name } = await nameForm.validateFields());
    } catch {
      return;
    }
    const values = filterForm.getFieldsValue();
    const problem = rangeProblem(values);
    if (problem) return void message.warning(problem);
    const filters = toLeadFilters(values);
    if (Object.keys(filters).length === 0) return void message.warning('请至少设置一个筛选条件');
    try {
      if (isEdit && target?.id) await edit.mutateAsync({ id: target.id, name: name.trim(), filters });
      else await create.mutateAsync({ name: name.trim(), filters });
      message.success(isEdit ? '修改成功' : '保存成功');
      onClose();
    } catch {
      // the http client has shown the server's message
    }
  });

  return (
    <Modal
      title={isEdit ? '编辑模板' : createTitle}
      open={target !== null}
      width={760}
      onCancel={onClose}
      onOk={submit}
      okButtonProps={{ loading: create.isPending || edit.isPending, disabled: isLocked }}
      destroyOnHidden
    >
      <Form
        form={nameForm}
        layout="horizontal"
        labelCol={{ flex: '84px' }}
        colon={false}
        initialValues={{ name: target?.name }}
        preserve={false}
      >
        <Form.Item
          label="模板名称"
          name="name"
          rules={[
            { required: true, whitespace: true, message: '请输入模板名称' },
            { max: LEAD_LIMITS.templateName, message: `模板名称最多${LEAD_LIMITS.templateName}个字符` },
          ]}
        >
          <Input placeholder="如：广东软件企业（注册资本100万以上）" maxLength={LEAD_LIMITS.templateName} showCount />
        </Form.Item>
      </Form>
      {target && <LeadFilterForm form={filterForm} columns={2} initialValues={toFilterValues(target.filters)} />}
    </Modal>
  );
};
