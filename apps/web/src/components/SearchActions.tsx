import { Button, Form, Space } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

type Props = { onReset: () => void; style?: CSSProperties /** more buttons after 重置 (e.g. 导出) */; children?: ReactNode };

/** The 查询 / 重置 pair that ends a list's inline search form (查询 submits the form). */
export const SearchActions = ({ onReset, style, children }: Props) => (
  <Form.Item style={style}>
    <Space>
      <Button type="primary" htmlType="submit">
        查询
      </Button>
      <Button onClick={onReset}>重置</Button>
      {children}
    </Space>
  </Form.Item>
);
