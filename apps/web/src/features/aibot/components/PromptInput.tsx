import { AIBOT_LIMITS, FLOW_VARIABLES } from '@crm/contracts';
import { Button, Input, Space, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useRef } from 'react';
import { insertVariable } from '../flowEdit';

type Props = {
  value: string;
  onChange: (text: string) => void;
  placeholder?: string;
  rows?: number;
  id?: string;
  'aria-label'?: string;
};

/** A prompt text with buttons that put a variable such as {客户名称} where the caret is. */
export const PromptInput = ({ value, onChange, placeholder, rows = 3, id, 'aria-label': ariaLabel }: Props) => {
  const ref = useRef<TextAreaRef>(null);
  const insert = (name: string) => {
    const area = ref.current?.resizableTextArea?.textArea;
    const next = insertVariable(value, name, area?.selectionStart);
    if (next.text.length > AIBOT_LIMITS.prompt) return;
    onChange(next.text);
    // put the caret after the variable once React has written the new text
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(next.caret, next.caret);
    });
  };
  return (
    <div>
      <Input.TextArea
        ref={ref}
        id={id}
        aria-label={ariaLabel}
        value={value}
        rows={rows}
        maxLength={AIBOT_LIMITS.prompt}
        showCount
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
      <Space size={4} wrap style={{ marginTop: 4 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          插入变量：
        </Typography.Text>
        {FLOW_VARIABLES.map((v) => (
          <Button key={v} size="small" onClick={() => insert(v)}>
            {`{${v}}`}
          </Button>
        ))}
      </Space>
    </div>
  );
};
