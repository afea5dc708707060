import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { APPROVAL_LIMITS } from '@crm/contracts';
import { Button, Checkbox, Form, Input, Select, Space } from 'antd';

/** Control kinds of an order form's extra controls (SPEC §4); 17 links the order and is added by the server. */
export const CONTROL_KIND_OPTIONS = [
  { value: 0, label: '单行文本' },
  { value: 1, label: '多行文本' },
  { value: 2, label: '整数' },
  { value: 3, label: '数字' },
  { value: 4, label: '日期' },
  { value: 5, label: '日期时间' },
  { value: 6, label: '电话' },
  { value: 7, label: '单选' },
  { value: 8, label: '多选' },
  { value: 11, label: '地区' },
  { value: 24, label: '级联选择' },
  { value: 12, label: '附件' },
  { value: 14, label: '说明文字' },
];
const HAS_OPTIONS = [7, 8, 24];

/** 审批表单: the extra controls the submitter fills in, each with its kind, options and 必填. */
export const TemplateControlsEditor = () => (
  <Form.List name="controls">
    {(fields, { add, remove }) => (
      <>
        {fields.map((field, i) => (
          <Space key={field.key} align="start" wrap style={{ display: 'flex', marginBottom: 4 }}>
            <Form.Item
              name={[field.name, 'name']}
              rules={[{ required: true, whitespace: true, message: '请输入控件名称' }]}
              style={{ marginBottom: 8 }}
            >
              <Input
                placeholder="控件名称"
                maxLength={APPROVAL_LIMITS.name}
                style={{ width: 140 }}
                aria-label={`控件${i + 1}名称`}
              />
            </Form.Item>
            <Form.Item name={[field.name, 'dmType']} style={{ marginBottom: 8 }}>
              <Select options={CONTROL_KIND_OPTIONS} style={{ width: 110 }} aria-label={`控件${i + 1}类型`} />
            </Form.Item>
            <Form.Item noStyle shouldUpdate>
              {({ getFieldValue }) =>
                HAS_OPTIONS.includes(getFieldValue(['controls', field.name, 'dmType'])) ? (
                  <Form.Item
                    name={[field.name, 'dmValue']}
                    rules={[{ required: true, type: 'array', min: 1, message: '请输入选项' }]}
                    style={{ marginBottom: 8 }}
                  >
                    <Select
                      mode="tags"
                      open={false}
                      placeholder={
                        getFieldValue(['controls', field.name, 'dmType']) === 24
                          ? '选项路径，用 / 分级，如 华东/上海，回车添加'
                          : '选项，回车添加'
                      }
                      style={{ width: 220 }}
                    />
                  </Form.Item>
                ) : (
                  <Form.Item name={[field.name, 'dmDesc']} style={{ marginBottom: 8 }}>
                    <Input
                      placeholder={getFieldValue(['controls', field.name, 'dmType']) === 14 ? '说明文字' : '提示文字（选填）'}
                      maxLength={APPROVAL_LIMITS.controlText}
                      style={{ width: 220 }}
                    />
                  </Form.Item>
                )
              }
            </Form.Item>
            <Form.Item name={[field.name, 'dmMust']} valuePropName="checked" style={{ marginBottom: 8 }}>
              <Checkbox>必填</Checkbox>
            </Form.Item>
            <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除控件" onClick={() => remove(field.name)} />
          </Space>
        ))}
        {fields.length < APPROVAL_LIMITS.controls && (
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => add({ name: '', dmType: 0, dmMust: false, dmValue: [], dmDesc: '' })}
          >
            添加控件
          </Button>
        )}
      </>
    )}
  </Form.List>
);
