import { LEAD_SOURCE_LABEL } from '@crm/contracts';
import { Alert, Button, Descriptions, Drawer, Empty, List, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useLeadInfo } from '../api';
import { CompanyStatusTag } from './CompanyStatusTag';
import { ConvertModal } from './ConvertModal';
import { capitalText, existingText } from './leadText';

type Props = { id: number | null; onClose: () => void };

/** The company card: registry facts, phones, and whether it is already a customer here and whose. */
export const CompanyCardDrawer = ({ id, onClose }: Props) => {
  const info = useLeadInfo(id);
  const [isConvertOpen, setConvertOpen] = useState(false);
  const c = info.data?.company;
  const existing = info.data?.existing ?? [];
  const converted = info.data?.convertedCustomerIds ?? [];

  const body = () => {
    if (info.isError) return <Result status="error" title="无法获取企业信息" subTitle="请稍后重试" />;
    if (!c) return <Skeleton active paragraph={{ rows: 10 }} />;
    return (
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <div>
          <Space align="center" wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {c.name}
            </Typography.Title>
            <CompanyStatusTag status={c.status} />
            {c.isOwn && <Tag color="blue">自有名单</Tag>}
          </Space>
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
            数据来源：{LEAD_SOURCE_LABEL[c.source] ?? c.source}
            {c.fetchedAt ? `，更新于 ${c.fetchedAt}` : ''}
          </Typography.Paragraph>
        </div>
        {existing.length > 0 ? (
          <Alert
            type="info"
            showIcon
            title="已是本公司客户"
            description={
              <List
                size="small"
                dataSource={existing}
                renderItem={(e) => (
                  <List.Item style={{ paddingInline: 0 }}>
                    <span>
                      {e.name}：{existingText(e)}
                      {e.phone ? `，${e.phone}` : ''}
                    </span>
                  </List.Item>
                )}
              />
            }
          />
        ) : (
          <Alert type="success" showIcon title="尚不是本公司客户" />
        )}
        <Descriptions column={2} size="small" bordered styles={{ label: { width: 116 } }}>
          <Descriptions.Item label="统一社会信用代码" span={2}>
            {c.creditCode || '-'}
          </Descriptions.Item>
          <Descriptions.Item label="法定代表人">{c.legalRep || '-'}</Descriptions.Item>
          <Descriptions.Item label="成立日期">{c.foundedOn || '-'}</Descriptions.Item>
          <Descriptions.Item label="注册资本">{capitalText(c.capitalWan)}</Descriptions.Item>
          <Descriptions.Item label="登记状态">{c.statusLabel}</Descriptions.Item>
          <Descriptions.Item label="所在地区" span={2}>
            {c.regionLabel || '-'}
          </Descriptions.Item>
          <Descriptions.Item label="行业" span={2}>
            {c.industryLabel || '-'}
          </Descriptions.Item>
          <Descriptions.Item label="地址" span={2}>
            {c.address || '-'}
          </Descriptions.Item>
          <Descriptions.Item label="经营范围" span={2}>
            <Typography.Paragraph ellipsis={{ rows: 3, expandable: true, symbol: '展开' }} style={{ margin: 0 }}>
              {c.scope || '-'}
            </Typography.Paragraph>
          </Descriptions.Item>
        </Descriptions>
        <div>
          <Typography.Title level={5}>联系方式</Typography.Title>
          {c.phones.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无联系电话" />
          ) : (
            <Space wrap>
              {c.phones.map((p) => (
                <Tag key={p} style={{ fontSize: 14, padding: '2px 8px' }}>
                  {p}
                </Tag>
              ))}
            </Space>
          )}
        </div>
      </Space>
    );
  };

  return (
    <Drawer
      title="企业详情"
      open={id !== null}
      onClose={onClose}
      size={640}
      destroyOnHidden
      extra={
        c && (
          <Button type="primary" disabled={converted.length > 0} onClick={() => setConvertOpen(true)}>
            {converted.length > 0 ? '已转为客户' : '转为客户'}
          </Button>
        )
      }
    >
      {body()}
      {c && (
        <ConvertModal
          open={isConvertOpen}
          leads={[{ id: c.id, name: c.name }]}
          onClose={() => setConvertOpen(false)}
          onDone={() => void info.refetch()}
        />
      )}
    </Drawer>
  );
};
