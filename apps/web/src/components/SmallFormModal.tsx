/** The small add/import windows of the number lists (黑名单, 禁拨名单): labels in 4 columns, the OK button busy while locked or saving. */
import { App, Form, type FormInstance, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useButtonLock } from './useButtonLock';

type Props<V> = {
  title: string;
  /** the OK button's text (添加, 导入) */
  okText: string;
  isOpen: boolean;
  onClose: () => void;
  form: FormInstance<V>;
  initialValues?: Partial<V>;
  /** the save is running: the OK button spins (besides the 2 s lock) */
  isPending?: boolean;
  /** saves the validated values; a thrown error keeps the window open (the http client has shown the server's message) */
  save: (values: V) => Promise<unknown>;
  /** the success message */
  doneText: string;
  children: ReactNode;
};

export const SmallFormModal = <V extends object>({
  title,
  okText,
  isOpen,
  onClose,
  form,
  initialValues,
  isPending = false,
  save,
  doneText,
  children,
}: Props<V>) => {
  const { message } = App.useApp();
  const [submit, isLocked] = useButtonLock(async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    try {
      await save(v);
    } catch {
      return;
    }
    message.success(doneText);
    onClose();
  });
  return (
    <Modal
      title={title}
      open={isOpen}
      onCancel={onClose}
      onOk={() => submit()}
      confirmLoading={isLocked || isPending}
      okText={okText}
      cancelText="取消"
      destroyOnHidden
    >
      <Form form={form} preserve={false} labelCol={{ span: 4 }} initialValues={initialValues}>
        {children}
      </Form>
    </Modal>
  );
};
