import { DownOutlined, MobileOutlined, PhoneOutlined } from '@ant-design/icons';
import { PHONE_STATE } from '@crm/contracts';
import { Badge, Dropdown, type MenuProps, Space, Tooltip, Typography } from 'antd';
import { useSession } from '../../stores/session';
import { type ExtensionDisplay, extensionDisplay } from '../extensionState';
import { changePhoneState } from '../phoneActions';
import { useExtension } from '../phoneStore';

const BADGE: Record<ExtensionDisplay, 'success' | 'warning' | 'processing' | 'error' | 'default'> = {
  在线: 'success',
  忙线: 'warning',
  注册中: 'processing',
  注册失败: 'error',
  离线: 'default',
};

const STATE_ITEMS: MenuProps['items'] = [
  { key: String(PHONE_STATE.online), label: <Badge status="success" text="在线" /> },
  { key: String(PHONE_STATE.busy), label: <Badge status="warning" text="忙线" /> },
  { key: String(PHONE_STATE.offline), label: <Badge status="default" text="离线" /> },
];

const light = { color: 'rgba(255,255,255,.85)' };

/**
 * The header's extension area (SPEC §2/§4): the default extension number, a device marker for
 * merchant accounts bound to a phone, and for normal accounts the 在线/忙线/离线 dropdown.
 */
export const ExtensionArea = () => {
  const merchantType = useSession((s) => s.userInfo?.merchantType ?? 1);
  const { sip, isLoaded, registerStatus, phoneState } = useExtension();
  if (!isLoaded) return null;
  if (!sip)
    return (
      <Typography.Text style={{ color: 'rgba(255,255,255,.65)' }} data-testid="extension-area">
        <PhoneOutlined /> 暂无默认分机
      </Typography.Text>
    );

  const number = (
    <Space size={6} style={light}>
      <PhoneOutlined />
      <span>分机 {sip.user}</span>
      {merchantType === 2 && sip.cmDeid > 0 && (
        <Tooltip title={sip.deviceOnline ? `已绑定设备 ${sip.imei}（在线）` : `已绑定设备 ${sip.imei}（未连接）`}>
          <MobileOutlined style={{ color: sip.deviceOnline ? '#52c41a' : 'rgba(255,255,255,.45)' }} aria-label="已绑定设备" />
        </Tooltip>
      )}
    </Space>
  );
  if (merchantType !== 1) return <span data-testid="extension-area">{number}</span>;

  const label = extensionDisplay(registerStatus, phoneState);
  return (
    <Space size={12} data-testid="extension-area">
      {number}
      <Dropdown
        trigger={['click']}
        menu={{
          items: STATE_ITEMS,
          selectable: true,
          selectedKeys: [String(label === '离线' ? PHONE_STATE.offline : phoneState)],
          onClick: ({ key }) => void changePhoneState(Number(key) as 0 | 1 | 2),
        }}
      >
        <Space size={4} style={{ ...light, cursor: 'pointer' }} role="button" aria-label="分机状态">
          <Badge status={BADGE[label]} />
          <span style={light}>{label}</span>
          <DownOutlined style={{ fontSize: 10 }} />
        </Space>
      </Dropdown>
    </Space>
  );
};
