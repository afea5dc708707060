import { DM_TYPE, type TemplateControl } from '@crm/contracts';
import { Alert, App, Form, Modal, Select, Spin } from 'antd';
import { useMemo } from 'react';
import { ControlInput, controlFieldName, controlRules, enabledControls, toSubmitted } from '../../../components/TemplateForm';
import { useButtonLock } from '../../../components/useButtonLock';
import { useBatchEditCustomers } from '../api';
import { useTemplateInfo } from '../templates-api';

/** Kinds a batch edit cannot set: no value, a group's own text, or files (per customer by nature). */
const NOT_BATCH_KINDS: readonly number[] = [DM_TYPE.staticText, DM_TYPE.group, DM_TYPE.file];

const flatten = (controls: TemplateControl[]): TemplateControl[] => controls.flatMap((c) => [c, ...flatten(c.children ?? [])]);

type Props = { open: boolean; cmCtids: number[]; onClose: () => void; onDone: () => void };

/**
 * 批量修改 (SPEC §7 batchedit): one template control and its value, set on every selected
 * customer. Duplicate-checked (isJudge) controls are left out: one value cannot be unique on many.
 */
export const BatchEditModal = ({ open, cmCtids, onClose, onDone }: Props) => {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const template = useTemplateInfo(0, open);
  const batchEdit = useBatchEditCustomers();
  const controls = useMemo(
    () =>
      flatten(enabledControls(template.data?.templateControls ?? [])).filter(
        (c) => !NOT_BATCH_KINDS.includes(c.dmType) && c.isJudge !== 1,
      ),
    [template.data],
  );
  const cbTacid: number | undefined = Form.useWatch('cbTacid', form);
  const control = controls.find((c) => c.cbTacid === cbTacid);

  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !control) return;
    try {
      const { count } = await batchEdit.mutateAsync({ cmCtids, templateControls: toSubmitted(values.c, [control]) });
      message.success(`已修改${count}个客户`);
    } catch {
      return; // the http client has shown the server's message
    }
    onDone();
    onClose();
  });

  return (
    <Modal
      title="批量修改"
      open={open}
      width={600}
      okText="确定"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ loading: batchEdit.isPending, disabled: isLocked || !control }}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        title={`将修改已选的 ${cmCtids.length} 个客户，所选字段的原有内容会被替换。`}
        style={{ marginBottom: 16 }}
      />
      <Spin spinning={template.isLoading}>
        <Form form={form} name="customerBatchEdit" layout="vertical" preserve={false}>
          <Form.Item name="cbTacid" label="修改字段" rules={[{ required: true, message: '请选择要修改的字段' }]}>
            <Select
              placeholder="请选择要修改的字段"
              showSearch={{ optionFilterProp: 'label' }}
              options={controls.map((c) => ({ value: c.cbTacid, label: c.name }))}
              onChange={() => form.setFieldValue('c', undefined)}
            />
          </Form.Item>
          {control && (
            <Form.Item
              key={control.cbTacid}
              name={controlFieldName(control)}
              label="修改为"
              rules={controlRules({ ...control, dmMust: 1 })}
            >
              <ControlInput control={control} />
            </Form.Item>
          )}
        </Form>
      </Spin>
    </Modal>
  );
};
