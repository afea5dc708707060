import {
  APPROVAL_LIMITS,
  type ApprovalTemplate,
  DOC_LINK_DM_TYPE,
  NODE_MODE_LABEL,
  NODE_TYPE,
  type TemplateCreateBody,
} from '@crm/contracts';
import { Alert, App, Form, Select, Skeleton, Tag, Timeline, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useTemplateInfo, useTemplateList } from '../api';
import { DynamicField, dynamicValueToStrings } from './DynamicField';

/** Form values this section owns, inside the form of the document being submitted. */
export type ApprovalSectionValues = {
  coMatid?: number;
  ctl?: Record<string, unknown>;
  nodes?: Record<string, number[]>;
};

// SPEC §5: a free approver node needs its staff, at most 3 of them.
const freeNodeRules: Rule[] = [
  {
    validator: async (_, v?: number[]) => {
      if (!v || v.length === 0) throw new Error('请选择审批人！');
      if (v.length > APPROVAL_LIMITS.staffPerNode) throw new Error('最多选择3名！');
    },
  },
];

/**
 * The flow of a template: each node with its preset staff, or a staff picker when it is free (form
 * field nodes.<nodeId>). The deal order window and the receipt window (company receipt flow) use it.
 */
export const FlowPanel = ({ template }: { template: ApprovalTemplate }) => {
  const { message } = App.useApp();
  return (
    <Timeline
      style={{ marginTop: 8 }}
      items={template.nodes.map((n) => {
        const isApprover = n.type === NODE_TYPE.approver;
        const kind = isApprover ? '审批人' : '抄送人';
        return {
          color: isApprover ? 'blue' : 'gray',
          children: (
            <div data-testid="flow-node">
              <Typography.Text strong>{n.name || kind}</Typography.Text> <Tag>{kind}</Tag>
              {isApprover && n.staffS.length + (n.free ? 1 : 0) > 1 && <Tag color="purple">{NODE_MODE_LABEL[n.mode]}</Tag>}
              {n.free ? (
                <Form.Item
                  name={['nodes', String(n.nodeId)]}
                  rules={isApprover ? freeNodeRules : []}
                  style={{ margin: '8px 0 0' }}
                  extra={`自选${kind}，最多3名`}
                >
                  <StaffSearchSelect
                    mode="multiple"
                    style={{ width: 360 }}
                    placeholder={`请选择${kind}`}
                    aria-label={`${n.name || kind}的${kind}`}
                    onChange={(v) => {
                      if (Array.isArray(v) && v.length > APPROVAL_LIMITS.staffPerNode) message.warning('最多选择3名！');
                    }}
                  />
                </Form.Item>
              ) : (
                <div style={{ marginTop: 4 }}>
                  {n.staffS.map((s) => (
                    <Tag key={s.id} color="geekblue">
                      {s.name}
                    </Tag>
                  ))}
                </div>
              )}
            </div>
          ),
        };
      })}
    />
  );
};

/**
 * 审批流程 of a document's form: the order templates (请选择审批流程), the chosen template's
 * extra controls and its flow panel. Used by the deal order window and by 提交审批 again.
 */
export const ApprovalSection = () => {
  const form = Form.useFormInstance();
  const coMatid: number | undefined = Form.useWatch('coMatid', form);
  const templates = useTemplateList(0, 1);
  const info = useTemplateInfo(coMatid);
  return (
    <>
      <Form.Item label="审批流程" name="coMatid" rules={[{ required: true, message: '请选择审批流程' }]}>
        <Select
          placeholder="请选择审批流程"
          loading={templates.isLoading}
          options={(templates.data?.list ?? []).map((t) => ({ value: t.coMatid, label: t.name }))}
          onChange={() => form.setFieldsValue({ ctl: {}, nodes: {} })}
        />
      </Form.Item>
      {coMatid !== undefined &&
        (info.isError ? (
          <Alert type="error" showIcon style={{ marginBottom: 16 }} message={`${info.error.message}，请重新选择审批流程`} />
        ) : info.isLoading || !info.data ? (
          <Skeleton active paragraph={{ rows: 3 }} />
        ) : (
          <>
            {info.data.templateControls.map((c) => (
              <DynamicField key={c.coTacid} control={c} name={['ctl', String(c.coTacid)]} />
            ))}
            <Form.Item label="审批流程图" required>
              <FlowPanel template={info.data} />
            </Form.Item>
          </>
        ))}
    </>
  );
};

/** The approval instance body of SPEC §4 (isSave 2): the document id travels in the dmType 17 control. */
export const approvalBody = (template: ApprovalTemplate, values: ApprovalSectionValues, docId: number): TemplateCreateBody => ({
  isSave: 2,
  coMatid: template.coMatid,
  templateControls: template.templateControls
    .filter((c) => c.dmType !== 14)
    .map((c) => ({
      coTacid: c.coTacid,
      dmValue: c.dmType === DOC_LINK_DM_TYPE ? [String(docId)] : dynamicValueToStrings(c, values.ctl?.[String(c.coTacid)]),
    })),
  staffApproveNode: template.nodes
    .filter((n) => n.free)
    .map((n) => ({ nodeId: n.nodeId, staffS: (values.nodes?.[String(n.nodeId)] ?? []).map((id) => ({ id })) })),
});
