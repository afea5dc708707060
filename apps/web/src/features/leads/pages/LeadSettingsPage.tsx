import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { LeadRulesForm } from '../components/LeadRulesForm';
import { OwnListsPanel } from '../components/OwnListsPanel';

const TABS = ['rules', 'own'] as const;
type TabKey = (typeof TABS)[number];

/** /jingxiansuo/settings 拓客设置: the data provider, quota and field mapping; the company's own lists. */
export const LeadSettingsPage = () => {
  const [params, setParams] = useSearchParams();
  const tab: TabKey = params.get('tab') === 'own' ? 'own' : 'rules';
  return (
    <Card title="拓客设置">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'rules' ? {} : { tab: key }, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'rules', label: '数据源与规则', children: <LeadRulesForm /> },
          { key: 'own', label: '自有名单', children: <OwnListsPanel /> },
        ]}
      />
    </Card>
  );
};
