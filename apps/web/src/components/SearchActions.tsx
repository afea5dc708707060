import { Button, Form, Space } from 'antd';
import type { CSSProperties } from 'react';

/** The 查询 / 重置 pair that ends a list's inline search form (查询 submits the form). */
export const SearchActions = ({ onReset, style }: { onReset: () => void; style?: CSSProperties }) => (
  <Form.Item style={style}>
    <Space>
      <Button type="primary" htmlType="submit">
        查询
      </Button>
      <Button onClick={onReset}>重置</Button>
    </Space>
  </Form.Item>
);
