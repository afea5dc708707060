import { PhoneOutlined } from '@ant-design/icons';
import { CALL_LIMITS } from '@crm/contracts';
import { Button, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useButtonLock } from '../../components/useButtonLock';
import { dial } from '../phoneActions';
import { useCall, useExtension } from '../phoneStore';

/** SPEC §2 dial modal: a number, 拨打 and 取消; both buttons lock for 2 s (SPEC §5). */
export const DialModal = () => {
  const isOpen = useCall((s) => s.isDialOpen);
  const closeDialler = useCall((s) => s.closeDialler);
  const sip = useExtension((s) => s.sip);
  const [number, setNumber] = useState('');

  const [submit, isLocked] = useButtonLock(async () => {
    if (await dial({ dstNumber: number.trim() })) setNumber('');
  });
  const [cancel] = useButtonLock(() => closeDialler());

  return (
    <Modal
      title="拨号"
      open={isOpen}
      width={400}
      onCancel={() => closeDialler()}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={() => cancel()}>取消</Button>
          <Button type="primary" icon={<PhoneOutlined />} loading={isLocked} onClick={() => submit()}>
            拨打
          </Button>
        </Space>
      }
    >
      <Input
        size="large"
        autoFocus
        placeholder="请输入电话号码"
        aria-label="电话号码"
        value={number}
        maxLength={CALL_LIMITS.dialMaxLength + 20}
        onChange={(e) => setNumber(e.target.value.replace(/[^\d*#+-]/g, ''))}
        onPressEnter={() => submit()}
        prefix={<PhoneOutlined />}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {sip
          ? `使用分机 ${sip.user} 外呼，号码长度 ${CALL_LIMITS.dialMinLength}–${CALL_LIMITS.dialMaxLength} 位`
          : '暂无默认分机'}
      </Typography.Paragraph>
    </Modal>
  );
};
