import type { ApprovalTemplate, TemplateSaveBody } from '@crm/contracts';
import { Alert, App, Col, Divider, Form, Input, Modal, Row, Select, Switch } from 'antd';
import { useSaveTemplate } from '../api';
import { FlowNodesEditor } from './FlowNodesEditor';
import { TemplateControlsEditor } from './TemplateControlsEditor';

type Values = {
  name: string;
  /** what the flow serves: 0 general, 1 deal orders, 2 receipts (the company picks its receipt flow in 回款设置), 3 seal use (用印审批, contracts) */
  isOrder: 0 | 1 | 2 | 3;
  isEnabled: boolean;
  controls?: { name: string; dmType: number; dmDesc?: string; dmValue?: string[]; dmMust?: boolean }[];
  nodes?: { name?: string; type: 0 | 1; mode?: 1 | 2; staffIds?: number[] }[];
};

type Props = { open: boolean; template: ApprovalTemplate | null; onClose: () => void };

const initialValues = (t: ApprovalTemplate | null): Values =>
  t
    ? {
        name: t.name,
        isOrder: t.isOrder === 1 || t.isOrder === 2 || t.isOrder === 3 ? t.isOrder : 0,
        isEnabled: t.actionState === 0,
        controls: t.templateControls
          .filter((c) => c.dmType !== 17)
          .map((c) => ({ name: c.name, dmType: c.dmType, dmDesc: c.dmDesc, dmValue: c.dmValue, dmMust: c.dmMust === 1 })),
        nodes: t.nodes.map((n) => ({
          name: n.name,
          type: n.type === 0 ? 0 : 1,
          mode: n.mode === 2 ? 2 : 1,
          staffIds: n.free ? [] : n.staffS.map((s) => s.id),
        })),
      }
    : { name: '', isOrder: 1, isEnabled: true, controls: [], nodes: [{ name: '', type: 0, mode: 1, staffIds: [] }] };

/** The form's values as the save body; kinds without options drop theirs. */
const toBody = (v: Values): TemplateSaveBody => ({
  name: v.name.trim(),
  isOrder: v.isOrder,
  actionState: v.isEnabled ? 0 : 1,
  controls: (v.controls ?? []).map((c) => ({
    name: c.name.trim(),
    dmType: c.dmType as 0,
    dmDesc: c.dmDesc ?? '',
    dmValue: c.dmType === 7 || c.dmType === 8 || c.dmType === 24 ? (c.dmValue ?? []) : [],
    dmMust: c.dmMust ? 1 : 0,
  })),
  nodes: (v.nodes ?? []).map((n) => ({
    name: n.name?.trim() ?? '',
    type: n.type,
    mode: n.mode ?? 1,
    staffIds: n.staffIds ?? [],
  })),
});

/** 新建/编辑审批流程: name, use for orders, the form's extra controls and the flow. Saving makes a new version. */
export const TemplateEditorModal = ({ open, template, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const save = useSaveTemplate();
  const known = template?.nodes.flatMap((n) => n.staffS.map((s) => ({ staff_id: s.id, linkman: s.name }))) ?? [];
  const submit = async () => {
    const v = await form.validateFields();
    if ((v.nodes ?? []).length === 0) return message.error('请至少添加一个审批节点');
    try {
      const body = toBody(v);
      await save.mutateAsync(template ? { ...body, coMatid: template.coMatid } : body);
    } catch {
      return;
    }
    message.success(template ? '保存成功，已生成新版本' : '添加成功');
    onClose();
  };
  return (
    <Modal
      title={template ? '编辑审批流程' : '新建审批流程'}
      open={open}
      width={900}
      onCancel={onClose}
      onOk={submit}
      okText="保存"
      confirmLoading={save.isPending}
      destroyOnHidden
      styles={{ body: { maxHeight: 'calc(100vh - 220px)', overflowY: 'auto', paddingRight: 8 } }}
    >
      {template && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={`当前为第 ${template.version} 版。保存后将生成新版本；已发起的审批仍按发起时的版本执行。`}
        />
      )}
      <Form form={form} layout="vertical" preserve={false} initialValues={initialValues(template)}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item label="流程名称" name="name" rules={[{ required: true, whitespace: true, message: '请输入审批流程名称' }]}>
              <Input maxLength={30} placeholder="请输入审批流程名称" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item label="用于" name="isOrder">
              <Select
                options={[
                  { value: 1, label: '订单审批' },
                  { value: 2, label: '回款审批' },
                  { value: 3, label: '用印审批' },
                  { value: 0, label: '通用' },
                ]}
              />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item label="启用" name="isEnabled" valuePropName="checked">
              <Switch checkedChildren="启用" unCheckedChildren="停用" />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start" plain>
          审批表单（发起时填写）
        </Divider>
        <TemplateControlsEditor />
        <Divider titlePlacement="start" plain>
          审批流程（按顺序流转）
        </Divider>
        <FlowNodesEditor known={known} />
      </Form>
    </Modal>
  );
};
