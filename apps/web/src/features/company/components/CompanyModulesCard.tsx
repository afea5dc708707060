import { type CompanyModule, type CompanyModules, MODULE_OFF_TEXT } from '@crm/contracts';
import { App, Card, List, Skeleton, Switch, Typography } from 'antd';
import { useCompanyModules, useSaveCompanyModules } from '../api';

const MODULES: { key: CompanyModule; name: string; what: string }[] = [
  { key: 'order', name: '订单', what: '订单管理、客户详情的订单页签和新建订单' },
  { key: 'receipt', name: '回款', what: '回款管理、客户详情的回款页签、新建回款计划和新建回款' },
  { key: 'work', name: '工单', what: '工单管理、客户详情的工单页签和新建工单' },
];

/** 模块开关 (issue 14): a switched-off module's pages hide and its tabs show the SPEC alert. */
export const CompanyModulesCard = () => {
  const { modal, message } = App.useApp();
  const { data, isLoading } = useCompanyModules();
  const save = useSaveCompanyModules();

  const apply = async (next: CompanyModules) => {
    try {
      await save.mutateAsync(next);
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('保存成功');
  };

  const toggle = (key: CompanyModule, on: boolean) => {
    if (!data) return;
    const next = { ...data, [key]: on };
    if (on) return apply(next);
    const m = MODULES.find((x) => x.key === key);
    modal.confirm({
      title: `确定关闭${m?.name}模块吗？`,
      content: `关闭后将隐藏${m?.what}，页签显示“${MODULE_OFF_TEXT[key]}”；已有数据保留，重新开启后恢复。`,
      okText: '关闭',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => apply(next),
    });
  };

  return (
    <Card title="模块开关">
      {isLoading || !data ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <List
          dataSource={MODULES}
          renderItem={(m) => (
            <List.Item
              actions={[
                <Switch
                  key="switch"
                  aria-label={`${m.name}模块`}
                  checked={data[m.key]}
                  loading={save.isPending}
                  checkedChildren="开"
                  unCheckedChildren="关"
                  onChange={(on) => toggle(m.key, on)}
                />,
              ]}
            >
              <List.Item.Meta
                title={`${m.name}模块`}
                description={<Typography.Text type="secondary">{m.what}</Typography.Text>}
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
};
