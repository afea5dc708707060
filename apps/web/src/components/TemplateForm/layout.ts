import type { FormProps } from 'antd';

/** One look for the customer form and its preview: labels on the left, 100 px wide. */
export const TEMPLATE_FORM_LAYOUT: Pick<FormProps, 'layout' | 'labelCol' | 'labelWrap' | 'colon'> = {
  layout: 'horizontal',
  labelCol: { flex: '100px' },
  labelWrap: true,
  colon: false,
};
