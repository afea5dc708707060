import type { BillingOverview } from '@crm/contracts';
import { Card, Col, Row, Skeleton, Statistic, Tag, Typography } from 'antd';
import { formatYuan } from '../money';

/** 预计可用天数: whole days at the last 30 days' average spend; 不限 when nothing was spent. */
const daysLeftText = (o: BillingOverview) => (o.days_left === null ? '—' : String(o.days_left));

/**
 * 消费明细's balance card: 余额, 本月消费, 今日消费, 预计可用天数. A staff member who sees only his own
 * charges (scope own) gets his spend and no company balance.
 */
export const BalanceCard = ({ overview, loading }: { overview: BillingOverview | undefined; loading: boolean }) => {
  if (loading || !overview) return <Card size="small">{<Skeleton active paragraph={{ rows: 1 }} />}</Card>;
  const isCompany = overview.scope === 'company';
  const figures = [
    ...(isCompany
      ? [
          {
            key: 'balance',
            title: (
              <>
                余额{' '}
                {overview.is_low && (
                  <Tag color="red" style={{ marginInlineStart: 4 }}>
                    余额不足
                  </Tag>
                )}
              </>
            ),
            value: formatYuan(overview.balance),
            color: overview.is_low ? '#cf1322' : undefined,
          },
        ]
      : []),
    { key: 'month', title: isCompany ? '本月消费' : '我的本月消费', value: formatYuan(overview.month_spend) },
    { key: 'today', title: isCompany ? '今日消费' : '我的今日消费', value: formatYuan(overview.today_spend) },
    ...(isCompany
      ? [{ key: 'days', title: '预计可用天数', value: daysLeftText(overview), suffix: overview.days_left === null ? '' : '天' }]
      : []),
  ];
  return (
    <Card size="small" data-testid="billing-balance">
      <Row gutter={[16, 8]} align="middle">
        {figures.map((f) => (
          <Col key={f.key} flex="1 1 160px" data-testid={`billing-figure-${f.key}`}>
            <Statistic
              title={f.title}
              value={f.value}
              suffix={'suffix' in f ? f.suffix : undefined}
              valueStyle={{ color: f.color }}
            />
          </Col>
        ))}
        {isCompany && (
          <Col flex="1 1 200px">
            <Typography.Text type="secondary" style={{ display: 'block' }}>
              资费套餐：{overview.plan?.name ?? '未设置（通话不计费）'}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ display: 'block' }}>
              通话中预占：{formatYuan(overview.reserved)}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ display: 'block' }}>
              近30天日均：{formatYuan(overview.daily_spend)}
            </Typography.Text>
          </Col>
        )}
      </Row>
    </Card>
  );
};
