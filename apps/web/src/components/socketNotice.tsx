import { type App, Button } from 'antd';

type Notification = ReturnType<typeof App.useApp>['notification'];

/**
 * A notice from the socket in the bottom right corner, with one action that closes it first
 * (查看工单, 查看留言…). Without `onAction` it is shown without a button.
 */
export const openSocketNotice = (
  notification: Notification,
  n: {
    key: string;
    type: 'info' | 'warning';
    title: string;
    description: string;
    duration?: number;
    actionLabel: string;
    onAction?: () => void;
  },
) =>
  notification.open({
    key: n.key,
    type: n.type,
    title: n.title,
    description: n.description,
    placement: 'bottomRight',
    ...(n.duration === undefined ? {} : { duration: n.duration }),
    actions: n.onAction ? (
      <Button
        type="primary"
        size="small"
        onClick={() => {
          notification.destroy(n.key);
          n.onAction?.();
        }}
      >
        {n.actionLabel}
      </Button>
    ) : undefined,
  });
