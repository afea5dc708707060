import type { WorkbenchReceipts } from '@crm/contracts';
import { Card, Col, Row, Statistic } from 'antd';
import { formatMoney } from '../../../components/money';

/** Workbench 回款: received this month, open plans due within 30 days, overdue plans (the caller's scope). */
export const ReceiptFigures = ({ receipts, onOpen }: { receipts: WorkbenchReceipts; onOpen: (to: string) => void }) => {
  const figures = [
    { title: '本月回款', value: formatMoney(receipts.monthReceived), suffix: '元' },
    { title: '30天内到期回款计划', value: `${receipts.dueIn30Days}`, suffix: '个' },
    { title: '已逾期回款计划', value: `${receipts.overdue}`, suffix: '个' },
  ];
  return (
    <Col span={24}>
      <Card title="回款" size="small">
        <Row gutter={[16, 16]}>
          {figures.map((f) => (
            <Col key={f.title} flex="1 1 180px">
              <Card size="small" hoverable onClick={() => onOpen('/order/receipt')} data-testid="receipt-figure">
                <Statistic title={f.title} value={f.value} suffix={f.suffix} />
              </Card>
            </Col>
          ))}
        </Row>
      </Card>
    </Col>
  );
};
