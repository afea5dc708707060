/** The option list of a select-kind control in the control form. */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, Tooltip } from 'antd';

/** Option texts of a select kind: add, remove, reorder; no blanks, no duplicates. */
export const OptionListField = () => (
  <Form.List
    name="options"
    rules={[
      {
        validator: async (_, list: string[] | undefined) => {
          const items = (list ?? []).map((o) => (o ?? '').trim());
          if (items.length === 0) throw new Error('请至少添加一个选项');
          const dup = items.find((o, i) => o && items.indexOf(o) !== i);
          if (dup) throw new Error(`选项不能重复：${dup}`);
        },
      },
    ]}
  >
    {(items, { add, remove, move }, { errors }) => (
      <Form.Item label="选项" required extra="修改选项文字后，已选该选项的客户数据将不再匹配">
        {items.map((item, i) => (
          <Space.Compact key={item.key} style={{ width: '100%', marginBottom: 8 }}>
            <Form.Item
              name={item.name}
              noStyle
              rules={[
                { required: true, whitespace: true, message: '选项不能为空' },
                { max: 50, message: '选项最多50个字符' },
              ]}
            >
              <Input placeholder={`选项${i + 1}`} maxLength={50} />
            </Form.Item>
            <Tooltip title="上移">
              <Button aria-label="上移" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, i - 1)} />
            </Tooltip>
            <Tooltip title="下移">
              <Button
                aria-label="下移"
                icon={<ArrowDownOutlined />}
                disabled={i === items.length - 1}
                onClick={() => move(i, i + 1)}
              />
            </Tooltip>
            <Tooltip title="删除">
              <Button aria-label="删除" danger icon={<DeleteOutlined />} onClick={() => remove(i)} />
            </Tooltip>
          </Space.Compact>
        ))}
        <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add('')} disabled={items.length >= 200}>
          添加选项
        </Button>
        <Form.ErrorList errors={errors} />
      </Form.Item>
    )}
  </Form.List>
);
