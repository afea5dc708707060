import {
  ApartmentOutlined,
  CalendarOutlined,
  LoginOutlined,
  TeamOutlined,
  UserAddOutlined,
  UserDeleteOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { WorkbenchOrders } from '@crm/contracts';
import { Card, Col, Descriptions, Row, Skeleton, Statistic, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { EChart, type EChartOption } from '../../../components/EChart';
import { formatMoney } from '../../../components/money';
import { SlotOutlet, workbenchBalanceSlot } from '../../../components/slots';
import { useSession } from '../../../stores/session';
import { RecycleSoonCard } from '../../pools/components/RecycleSoonCard';
import { ReceiptFigures } from '../../receipts/components/ReceiptFigures';
import { useWorkbenchSummary } from '../api';

const greeting = () => {
  const h = dayjs().hour();
  return h < 6 ? '夜深了' : h < 12 ? '上午好' : h < 14 ? '中午好' : h < 18 ? '下午好' : '晚上好';
};

/** Orders and amount today / this month, and approvals waiting for me. */
const OrderFigures = ({ orders, onOpen }: { orders: WorkbenchOrders; onOpen: (to: string) => void }) => {
  const figures = [
    { title: '今日订单', value: `${orders.todayOrders}`, suffix: '单', to: '/order/list' },
    { title: '今日成交金额', value: formatMoney(orders.todayAmount), suffix: '元', to: '/order/list' },
    { title: '本月订单', value: `${orders.monthOrders}`, suffix: '单', to: '/order/list' },
    { title: '本月成交金额', value: formatMoney(orders.monthAmount), suffix: '元', to: '/order/list' },
    { title: '待我审批', value: `${orders.pendingApprovals}`, suffix: '条', to: '/order/approval' },
  ];
  return (
    <Col span={24}>
      <Card title="订单与审批" size="small">
        <Row gutter={[16, 16]}>
          {figures.map((f) => (
            <Col key={f.title} flex="1 1 180px">
              <Card size="small" hoverable onClick={() => onOpen(f.to)} data-testid="order-figure">
                <Statistic title={f.title} value={f.value} suffix={f.suffix} />
              </Card>
            </Col>
          ))}
        </Row>
      </Card>
    </Col>
  );
};

/** /home/Index: who I am, my department and role, last login; later issues add their figures. */
export const WorkbenchPage = () => {
  const { data, isLoading } = useWorkbenchSummary();
  const userInfo = useSession((s) => s.userInfo);
  const navigate = useNavigate();
  const perDay = data?.customers.createdPerDay;
  const orders = data?.orders;
  const chart = useMemo<EChartOption>(
    () => ({
      grid: { left: 40, right: 16, top: 24, bottom: 32 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: (perDay ?? []).map((d) => d.date.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        {
          name: '新增客户',
          type: 'bar',
          data: (perDay ?? []).map((d) => d.count),
          itemStyle: { color: '#1677ff' },
          barMaxWidth: 18,
        },
      ],
    }),
    [perDay],
  );
  const figures = [
    { title: '我的客户', value: data?.customers.myCustomers, icon: <UserOutlined />, to: '/manage/mycustomer' },
    { title: '今日预约', value: data?.customers.todayAppointments, icon: <CalendarOutlined />, to: '/manage/subscribe' },
    { title: '本周新增', value: data?.customers.newThisWeek, icon: <UserAddOutlined />, to: '/manage/mycustomer' },
    { title: '从未联系', value: data?.customers.neverContacted, icon: <UserDeleteOutlined />, to: '/manage/nevermentioned' },
  ];
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card>
          {isLoading || !data ? (
            <Skeleton active paragraph={{ rows: 2 }} />
          ) : (
            <>
              <Typography.Title level={4} style={{ marginTop: 0 }}>
                {greeting()}，{data.name}
              </Typography.Title>
              <Descriptions column={{ xs: 1, sm: 2, lg: 4 }} size="small">
                <Descriptions.Item label="企业">{data.companyName}</Descriptions.Item>
                <Descriptions.Item label="部门">{data.cmDidName || '未分配部门'}</Descriptions.Item>
                <Descriptions.Item label="角色">{data.cmAridName}</Descriptions.Item>
                <Descriptions.Item label="账号类型">{userInfo?.merchantType === 2 ? '商户号' : '普通账号'}</Descriptions.Item>
                <Descriptions.Item label="上次登录时间">{data.lastLoginTime || '-'}</Descriptions.Item>
                <Descriptions.Item label="上次登录IP">{data.lastLoginIp || '-'}</Descriptions.Item>
              </Descriptions>
            </>
          )}
        </Card>
      </Col>
      {figures.map((f) => (
        <Col key={f.title} xs={12} lg={6}>
          <Card loading={isLoading} hoverable onClick={() => navigate(f.to)}>
            <Statistic title={f.title} value={f.value ?? 0} prefix={f.icon} suffix="个" />
          </Card>
        </Col>
      ))}
      <SlotOutlet slot={workbenchBalanceSlot} onOpen={navigate} />
      {orders && <OrderFigures orders={orders} onOpen={navigate} />}
      {data?.receipts && <ReceiptFigures receipts={data.receipts} onOpen={navigate} />}
      <Col span={24}>
        <RecycleSoonCard />
      </Col>
      <Col span={24}>
        <Card title="近30天我新增的客户" loading={isLoading}>
          <EChart option={chart} />
        </Card>
      </Col>
      <Col xs={24} md={8}>
        <Card loading={isLoading}>
          <Statistic title="企业员工" value={data?.staffCount ?? 0} prefix={<TeamOutlined />} suffix="人" />
        </Card>
      </Col>
      <Col xs={24} md={8}>
        <Card loading={isLoading}>
          <Statistic title="部门数" value={data?.departmentCount ?? 0} prefix={<ApartmentOutlined />} suffix="个" />
        </Card>
      </Col>
      <Col xs={24} md={8}>
        <Card loading={isLoading}>
          <Statistic title="今日登录员工" value={data?.todayLogins ?? 0} prefix={<LoginOutlined />} suffix="人" />
        </Card>
      </Col>
    </Row>
  );
};
