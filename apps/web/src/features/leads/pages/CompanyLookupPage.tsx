import { SearchOutlined } from '@ant-design/icons';
import { LEAD_LIMITS } from '@crm/contracts';
import { App, Button, Card, Checkbox, Empty, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTablePaging } from '../../../components/useTablePaging';
import { type CompanyLookup, useCompanyLookup } from '../api';
import { CompanyCardDrawer } from '../components/CompanyCardDrawer';
import { LeadTable } from '../components/LeadTable';
import { ProviderWarning } from '../components/ProviderWarning';

/** /jingxiansuo/company 查企业: a company by (part of) its name; the card shows registry facts and whose customer it is. */
export const CompanyLookupPage = () => {
  const { message } = App.useApp();
  const [typed, setTyped] = useState('');
  const [isRemote, setRemote] = useState(false);
  const [searched, setSearched] = useState<Omit<CompanyLookup, 'page' | 'limit'> | null>(null);
  const paging = useTablePaging(LEAD_LIMITS.pageSize);
  const query = searched ? { ...searched, page: paging.page, limit: paging.limit } : null;
  const result = useCompanyLookup(query);
  const [openId, setOpenId] = useState<number | null>(null);

  const search = () => {
    const keyword = typed.trim();
    if (!keyword) return void message.warning('请输入企业名称');
    setSearched({ keyword, isRemote });
    paging.resetPage();
  };

  return (
    <Card title="查企业">
      <Space.Compact style={{ width: '100%', maxWidth: 720 }}>
        <Input
          size="large"
          allowClear
          value={typed}
          maxLength={LEAD_LIMITS.keyword}
          placeholder="输入企业名称，如：深圳市某某科技有限公司（支持简称、全角/半角括号）"
          onChange={(e) => setTyped(e.target.value)}
          onPressEnter={search}
          aria-label="企业名称"
        />
        <Button size="large" type="primary" icon={<SearchOutlined />} loading={result.isFetching} onClick={search}>
          查询
        </Button>
      </Space.Compact>
      <div style={{ margin: '8px 0 16px' }}>
        <Checkbox checked={isRemote} onChange={(e) => setRemote(e.target.checked)}>
          同时查询企业数据服务（按次计费，结果会缓存到本地企业库）
        </Checkbox>
      </div>
      {searched === null ? (
        <Empty style={{ padding: '48px 0' }} description="输入企业名称开始查询" />
      ) : (
        <>
          <ProviderWarning error={result.data?.providerError} />
          {result.data && (
            <Typography.Paragraph type="secondary">
              「{searched.keyword}」共找到 {result.data.count} 家企业
            </Typography.Paragraph>
          )}
          <LeadTable
            rows={result.data?.list ?? []}
            loading={result.isFetching}
            pagination={paging.pagination(result.data?.count ?? 0)}
            onOpen={(row) => setOpenId(row.id)}
            empty="没有找到名称相符的企业"
          />
        </>
      )}
      <CompanyCardDrawer id={openId} onClose={() => setOpenId(null)} />
    </Card>
  );
};
