import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { APPROVAL_LIMITS, NODE_TYPE } from '@crm/contracts';
import { Button, Card, Form, Input, Radio, Select, Space, Typography } from 'antd';
import type { StaffName } from '../../../components/StaffSearchSelect';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';

/**
 * 审批流程: ordered nodes, each an approver (type 0) or a CC node, with preset staff (≤ 3)
 * or none (free: the submitter picks up to 3), and 或签/会签 for several approvers.
 */
export const FlowNodesEditor = ({ known }: { known: StaffName[] }) => (
  <Form.List name="nodes">
    {(fields, { add, remove, move }) => (
      <>
        {fields.map((field, i) => (
          <Card
            key={field.key}
            size="small"
            style={{ marginBottom: 8 }}
            title={<Typography.Text>节点 {i + 1}</Typography.Text>}
            extra={
              <Space size={0}>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  aria-label="上移"
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  aria-label="下移"
                  disabled={i === fields.length - 1}
                  onClick={() => move(i, i + 1)}
                />
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label="删除节点"
                  onClick={() => remove(field.name)}
                />
              </Space>
            }
          >
            <Space wrap align="start">
              <Form.Item name={[field.name, 'type']} style={{ marginBottom: 8 }}>
                <Select
                  style={{ width: 100 }}
                  options={[
                    { value: NODE_TYPE.approver, label: '审批人' },
                    { value: NODE_TYPE.cc, label: '抄送人' },
                  ]}
                  aria-label={`节点${i + 1}类型`}
                />
              </Form.Item>
              <Form.Item noStyle shouldUpdate>
                {({ getFieldValue }) => {
                  // the hints follow the node's kind: an approver node approves, a CC node is told
                  const isCc = getFieldValue(['nodes', field.name, 'type']) === NODE_TYPE.cc;
                  return (
                    <>
                      <Form.Item name={[field.name, 'name']} style={{ marginBottom: 8 }}>
                        <Input
                          placeholder={isCc ? '节点名称，如 抄送财务' : '节点名称，如 主管审批'}
                          maxLength={APPROVAL_LIMITS.name}
                          style={{ width: 170 }}
                        />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'staffIds']}
                        style={{ marginBottom: 8 }}
                        rules={[{ type: 'array', max: APPROVAL_LIMITS.staffPerNode, message: '最多选择3名！' }]}
                        extra={
                          isCc
                            ? '流程走到这里时通知这些人（最多3名）；不选则由发起人提交时自选，也可不抄送'
                            : '不选则由发起人自选审批人（最多3名）'
                        }
                      >
                        <StaffSearchSelect
                          mode="multiple"
                          known={known}
                          allowClear
                          placeholder={isCc ? '发起人自选抄送人' : '发起人自选'}
                          style={{ width: 260 }}
                        />
                      </Form.Item>
                    </>
                  );
                }}
              </Form.Item>
              <Form.Item noStyle shouldUpdate>
                {({ getFieldValue }) =>
                  getFieldValue(['nodes', field.name, 'type']) === NODE_TYPE.approver ? (
                    <Form.Item name={[field.name, 'mode']} style={{ marginBottom: 8 }}>
                      <Radio.Group
                        options={[
                          { value: 1, label: '或签' },
                          { value: 2, label: '会签' },
                        ]}
                      />
                    </Form.Item>
                  ) : null
                }
              </Form.Item>
            </Space>
          </Card>
        ))}
        {fields.length < APPROVAL_LIMITS.nodes && (
          <Button
            type="dashed"
            block
            icon={<PlusOutlined />}
            onClick={() => add({ type: NODE_TYPE.approver, name: '', mode: 1, staffIds: [] })}
          >
            添加节点
          </Button>
        )}
      </>
    )}
  </Form.List>
);
