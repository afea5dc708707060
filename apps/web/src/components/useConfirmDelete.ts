import { App } from 'antd';
import { useCallback } from 'react';

/**
 * The one delete confirmation of the product (SPEC §2: title 删除提示, text 确定要删除吗？).
 * `onOk` runs the deletion; a rejected promise keeps the dialog from reporting success,
 * the http client has already shown the server's message.
 */
export const useConfirmDelete = () => {
  const { modal, message } = App.useApp();
  return useCallback(
    (onOk: () => Promise<unknown>, content = '确定要删除吗？') =>
      modal.confirm({
        title: '删除提示',
        content,
        okText: '确定',
        okButtonProps: { danger: true },
        cancelText: '取消',
        onOk: async () => {
          try {
            await onOk();
          } catch {
            return;
          }
          message.success('删除成功');
        },
      }),
    [modal, message],
  );
};
