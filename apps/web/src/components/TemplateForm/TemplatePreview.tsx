import type { TemplateControl } from '@crm/contracts';
import { Empty, Form } from 'antd';
import type { ReactNode } from 'react';
import { TEMPLATE_FORM_LAYOUT } from './layout';
import { TemplateFields } from './TemplateFields';

type Props = {
  /** the controls as the customer form shows them (enabled ones) */
  controls: TemplateControl[];
  /** fields shown before the controls, e.g. the customer name */
  leading?: ReactNode;
  emptyText?: string;
  /** form name, unique on the page (it prefixes the input ids) */
  name?: string;
};

/**
 * A working, unsaved rendering of template controls: what the customer modal will show.
 * Inputs can be tried out; uploads stay in the browser and nothing is submitted.
 */
export const TemplatePreview = ({ controls, leading, emptyText = '暂无控件', name = 'templatePreview' }: Props) => {
  const [form] = Form.useForm();
  return (
    <Form name={name} form={form} {...TEMPLATE_FORM_LAYOUT} wrapperCol={{ flex: 1 }} style={{ minWidth: 0 }}>
      {leading}
      {controls.length > 0 ? <TemplateFields controls={controls} isPreview /> : <Empty description={emptyText} />}
    </Form>
  );
};
