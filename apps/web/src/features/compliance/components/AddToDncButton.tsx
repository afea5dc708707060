import { DNC_REASON_DEFAULT } from '@crm/contracts';
import { App, Button, Popconfirm } from 'antd';
import { useAddDncFromCall } from '../api';

/** 加入禁拨 on a call record: the server takes the number from the call (the agent never needs it). */
export const AddToDncButton = ({ uuid }: { uuid: string }) => {
  const { message } = App.useApp();
  const add = useAddDncFromCall();
  const onConfirm = async () => {
    try {
      await add.mutateAsync({ uuid, reason: DNC_REASON_DEFAULT });
    } catch {
      return;
    }
    message.success('已加入禁拨名单');
  };
  return (
    <Popconfirm
      title="加入禁拨名单"
      description="该号码在保留期内将不会再被拨打，确定加入？"
      okText="加入"
      cancelText="取消"
      onConfirm={onConfirm}
    >
      <Button type="link" size="small" loading={add.isPending} style={{ padding: 0, height: 'auto', fontSize: 12 }}>
        加入禁拨
      </Button>
    </Popconfirm>
  );
};
