import { Card, Tabs } from 'antd';
import { BlackFilesTab } from '../components/BlackFilesTab';
import { BlackNumbersTab } from '../components/BlackNumbersTab';

/** /blacklist/Index: blacklist files (import, switch on/off) and manual entries; blacklisted numbers cannot be dialled. */
export const BlacklistPage = () => (
  <Card title="黑名单号码">
    <Tabs
      items={[
        { key: 'files', label: '黑名单文件', children: <BlackFilesTab /> },
        { key: 'manual', label: '手动添加', children: <BlackNumbersTab /> },
      ]}
    />
  </Card>
);
