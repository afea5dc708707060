import { App, Form, type FormInstance, Modal } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useButtonLock } from './useButtonLock';

type Props<V> = {
  open: boolean;
  title: string;
  /** the form's name (field ids and labels in tests derive from it) */
  name: string;
  form: FormInstance<V>;
  initialValues?: Partial<V>;
  /** a mutation is running: the OK button spins */
  isPending: boolean;
  /**
   * Saves the validated values and returns the success message to show. A thrown error
   * keeps the modal open: the http client has already shown the server's message.
   */
  onSubmit: (values: V) => Promise<string>;
  onClose: () => void;
  children: ReactNode;
  width?: number;
  okText?: string;
  layout?: 'vertical' | 'horizontal';
  /** shown below the form, outside it (e.g. a preview with its own form) */
  after?: ReactNode;
  /** the modal body's style (e.g. a scrolling body for a tall form) */
  bodyStyle?: CSSProperties;
};

/**
 * The add/edit modal of the settings and organisation pages: 600 px (SPEC §9), 确定 locked 2 s
 * after a click (SPEC §5), validation first, success message, closing forgets the form.
 */
export const FormModal = <V extends object>({
  open,
  title,
  name,
  form,
  initialValues,
  isPending,
  onSubmit,
  onClose,
  children,
  width = 600,
  okText = '确定',
  layout = 'vertical',
  after,
  bodyStyle,
}: Props<V>) => {
  const { message } = App.useApp();
  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    let done: string;
    try {
      done = await onSubmit(values);
    } catch {
      return;
    }
    message.success(done);
    onClose();
  });
  return (
    <Modal
      open={open}
      title={title}
      width={width}
      okText={okText}
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ loading: isPending, disabled: isLocked && !isPending }}
      destroyOnHidden
      styles={bodyStyle ? { body: bodyStyle } : undefined}
    >
      <Form name={name} form={form} layout={layout} initialValues={initialValues} preserve={false} style={{ marginTop: 16 }}>
        {children}
      </Form>
      {after}
    </Modal>
  );
};
