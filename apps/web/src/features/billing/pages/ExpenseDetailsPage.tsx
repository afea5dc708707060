import { BellOutlined } from '@ant-design/icons';
import { CHARGE_KIND_LABEL } from '@crm/contracts';
import { Button, Card, Col, Row, Space, Tabs } from 'antd';
import { useState } from 'react';
import { JobExportButton } from '../../../components/JobExportButton';
import { type BillingFilters, useBillingOverview, useStartBillingExport } from '../api';
import { BalanceCard } from '../components/BalanceCard';
import { type BillingSearch, BillingSearchBar } from '../components/BillingSearchBar';
import { ChargesPanel } from '../components/ChargesPanel';
import { ConsumptionChart } from '../components/ConsumptionChart';
import { RechargesPanel } from '../components/RechargesPanel';
import { SummaryPanel } from '../components/SummaryPanel';
import { ThresholdsModal } from '../components/ThresholdsModal';

const KIND_OPTIONS = Object.entries(CHARGE_KIND_LABEL).map(([value, label]) => ({ value, label }));

const toFilters = (s: BillingSearch): BillingFilters => ({
  start: s.from,
  end: s.to,
  staff_id: s.staffId,
  department_id: s.departmentId,
  kind: s.kind as BillingFilters['kind'],
  number: s.number,
});

/**
 * /account/expensedetails 消费明细 (issue 27): the balance card, the daily spend by kind, and the
 * charges, recharges and summaries of the filters (empty dates: this month). What the caller may
 * see is the server's answer: the company for an admin, his own charges for a staff member whose
 * role grants it (no balance, no recharges).
 */
export const ExpenseDetailsPage = () => {
  const overview = useBillingOverview();
  const [filters, setFilters] = useState<BillingFilters>({});
  const startExport = useStartBillingExport();
  const [isEditingThresholds, setEditingThresholds] = useState(false);
  const isCompany = overview.data?.scope === 'company';
  // a new search starts each list on its first page
  const listKey = JSON.stringify(filters);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <BalanceCard overview={overview.data} loading={overview.isLoading} />
      <Row gutter={16}>
        <Col span={24}>
          <ConsumptionChart filters={filters} />
        </Col>
      </Row>
      <Card
        title="消费明细"
        size="small"
        extra={
          isCompany && (
            <Button icon={<BellOutlined />} onClick={() => setEditingThresholds(true)}>
              余额提醒
            </Button>
          )
        }
      >
        <BillingSearchBar
          kinds={KIND_OPTIONS}
          withStaff={overview.data?.scope !== 'own'}
          onSearch={(s) => setFilters(toFilters(s))}
        >
          <JobExportButton title="导出消费明细" start={startExport} input={filters} />
        </BillingSearchBar>
        <Tabs
          destroyOnHidden
          items={[
            { key: 'charges', label: '消费明细', children: <ChargesPanel key={listKey} filters={filters} /> },
            ...(isCompany
              ? [{ key: 'recharges', label: '充值记录', children: <RechargesPanel key={listKey} filters={filters} /> }]
              : []),
            { key: 'summary', label: '汇总', children: <SummaryPanel filters={filters} /> },
          ]}
        />
      </Card>
      <ThresholdsModal isOpen={isEditingThresholds} onClose={() => setEditingThresholds(false)} />
    </Space>
  );
};
