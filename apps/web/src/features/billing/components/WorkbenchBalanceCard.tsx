import { Card, Col, Row, Statistic } from 'antd';
import { hasPermission, useSession } from '../../../stores/session';
import { useBillingOverview } from '../api';
import { formatYuan } from '../money';

/**
 * The workbench's 账户余额 card (filled into the workbench's slot): balance and days left at the last
 * 30 days' spend, for whoever sees the company's money (scope company); nothing for the others.
 */
export const WorkbenchBalanceCard = ({ onOpen }: { onOpen: (to: string) => void }) => {
  const canSee = hasPermission(
    useSession((s) => s.permissions),
    '/account/expensedetails',
  );
  const { data } = useBillingOverview(canSee);
  if (!canSee || data?.scope !== 'company') return null;
  const figures = [
    { key: 'balance', title: '账户余额', value: formatYuan(data.balance), color: data.is_low ? '#cf1322' : undefined },
    {
      key: 'days',
      title: '预计可用天数',
      value: data.days_left === null ? '—' : `${data.days_left}`,
      suffix: data.days_left === null ? '' : '天',
    },
    { key: 'today', title: '今日消费', value: formatYuan(data.today_spend) },
  ];
  return (
    <Col span={24}>
      <Card
        title="账户余额"
        size="small"
        extra={data.is_low ? <span style={{ color: '#cf1322' }}>余额不足，请及时充值</span> : null}
      >
        <Row gutter={[16, 16]}>
          {figures.map((f) => (
            <Col key={f.key} flex="1 1 180px">
              <Card
                size="small"
                hoverable
                onClick={() => onOpen('/account/expensedetails')}
                data-testid={`workbench-billing-${f.key}`}
              >
                <Statistic title={f.title} value={f.value} suffix={f.suffix} valueStyle={{ color: f.color }} />
              </Card>
            </Col>
          ))}
        </Row>
      </Card>
    </Col>
  );
};
