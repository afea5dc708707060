import { CONTROL_LIMITS } from '@crm/contracts';
import { App, Form, Input, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import {
  type ControlFormValues,
  fromStored,
  TEMPLATE_FORM_LAYOUT,
  TemplateFields,
  toSubmitted,
} from '../../../components/TemplateForm';
import { useButtonLock } from '../../../components/useButtonLock';
import { useCreateCustomer, useCustomerInfo, useEditCustomer, useTemplateInfo } from '../templates-api';

type Props = {
  open: boolean;
  mode: 'add' | 'edit';
  /** the customer being edited (edit mode) */
  cmCtid?: number;
  onClose: () => void;
  onSaved?: (cmCtid: number) => void;
};

type Values = { name?: string; c?: ControlFormValues };

/** SPEC §9: the edit modal merges the stored values this long after the template arrived. */
const MERGE_DELAY_MS = 300;

/** The customer name field (SPEC §5: max 50; required only when the template says so). */
export const CustomerNameItem = ({ isRequired }: { isRequired: boolean }) => (
  <Form.Item
    label="客户名称"
    name="name"
    rules={[
      { required: isRequired, whitespace: true, message: '客户名称不能为空' },
      { max: CONTROL_LIMITS.customerName, message: `客户名称最多${CONTROL_LIMITS.customerName}个字符` },
    ]}
  >
    <Input placeholder="请输入客户名称" maxLength={CONTROL_LIMITS.customerName} allowClear />
  </Form.Item>
);

/**
 * Add or edit a customer (SPEC §2, §4 customer modal): the form is the company's template.
 * Every open re-fetches the template (and in edit mode the customer); 确定 stays disabled
 * until the controls, and in edit mode the stored values, are in the form.
 */
export const CustomerFormModal = ({ open, mode, cmCtid, onClose, onSaved }: Props) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const isEdit = mode === 'edit';
  // Data older than this open does not count as loaded: every open re-fetches (SPEC §4).
  const [openedAt, setOpenedAt] = useState(0);
  const [isMerged, setMerged] = useState(false);
  useEffect(() => {
    if (open) setOpenedAt(Date.now());
    else setMerged(false);
  }, [open]);

  const template = useTemplateInfo(0, open && openedAt > 0);
  const info = useCustomerInfo(cmCtid, open && isEdit && openedAt > 0);
  const create = useCreateCustomer();
  const edit = useEditCustomer();

  const isTemplateFresh = openedAt > 0 && template.dataUpdatedAt >= openedAt && !template.isFetching;
  const isInfoFresh = openedAt > 0 && info.dataUpdatedAt >= openedAt && !info.isFetching;
  const hasFailed =
    (template.isError && template.errorUpdatedAt >= openedAt) || (isEdit && info.isError && info.errorUpdatedAt >= openedAt);
  const controls = isTemplateFresh ? (template.data?.templateControls ?? []) : [];
  const isMustName = template.data?.isMustName === 1;

  // Edit: once the template's controls are rendered, merge the stored values (SPEC §4).
  const stored = isEdit && isTemplateFresh && isInfoFresh ? info.data : undefined;
  useEffect(() => {
    if (!open || !stored || isMerged) return;
    const timer = window.setTimeout(() => {
      form.setFieldsValue({ name: stored.name, c: fromStored(controls, stored.templateControls) });
      setMerged(true);
    }, MERGE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [open, stored, isMerged, controls, form]);

  const isReady = isTemplateFresh && (!isEdit || isMerged);
  const isLoading = open && !isReady && !hasFailed;
  const isSaving = create.isPending || edit.isPending;

  const [submit, isLocked] = useButtonLock(async () => {
    if (!isReady || !template.data) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const body = { name: values.name?.trim() ?? '', templateControls: toSubmitted(values.c, controls) };
    let savedId: number;
    try {
      if (isEdit && cmCtid !== undefined) {
        await edit.mutateAsync({ ...body, cmCtid, id: cmCtid });
        savedId = cmCtid;
      } else {
        savedId = (await create.mutateAsync({ ...body, cmAtid: template.data.cmAtid })).cmCtid;
      }
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('提交成功');
    onSaved?.(savedId);
    onClose();
  });

  return (
    <Modal
      open={open}
      title={isEdit ? '编辑客户' : '新增客户'}
      width={600}
      okText="确定"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ disabled: !isReady || (isLocked && !isSaving), loading: isSaving }}
      // Closing forgets the form, the controls and the uploaded files (SPEC §4).
      destroyOnHidden
      afterClose={() => setOpenedAt(0)}
      styles={{ body: { maxHeight: 'calc(100vh - 260px)', overflowY: 'auto', overflowX: 'hidden', paddingRight: 8 } }}
    >
      <Spin spinning={isLoading}>
        <Form
          name="customerForm"
          form={form}
          {...TEMPLATE_FORM_LAYOUT}
          wrapperCol={{ flex: 1 }}
          preserve={false}
          style={{ marginTop: 16, minHeight: 120 }}
        >
          <CustomerNameItem isRequired={isMustName} />
          <TemplateFields controls={controls} />
        </Form>
      </Spin>
    </Modal>
  );
};
