import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { AccountPanel } from '../components/AccountPanel';
import { RulePanel } from '../components/RulePanel';
import { SealsPanel } from '../components/SealsPanel';
import { TemplatesPanel } from '../components/TemplatesPanel';

const TABS = ['template', 'rule', 'seal', 'account'] as const;

/** 合同设置 (/contract/setting): templates, the numbering rule, seals and the e-sign account (?tab= opens one). */
export const ContractSettingsPage = () => {
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((t) => t === params.get('tab')) ?? 'template';
  return (
    <Card title="合同设置">
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'template', label: '合同模板', children: <TemplatesPanel /> },
          { key: 'rule', label: '编号规则', children: <RulePanel /> },
          { key: 'seal', label: '印章管理', children: <SealsPanel /> },
          { key: 'account', label: '电子签账户', children: <AccountPanel /> },
        ]}
      />
    </Card>
  );
};
