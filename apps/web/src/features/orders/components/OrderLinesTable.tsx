import { DeleteOutlined } from '@ant-design/icons';
import { ORDER_LIMITS } from '@crm/contracts';
import { Button, InputNumber, Table, Typography } from 'antd';
import { formatMoney } from '../../../components/money';
import { YuanInput } from '../../../components/YuanInput';
import { isBelowMinimum, lineTotal, type OrderLine, ordersTotal, SUMMARY_NA } from './orderLines';

type Props = {
  lines: OrderLine[];
  onChange: (lines: OrderLine[]) => void;
  /** the order is stored (待提交): its lines are shown, no longer edited */
  isReadOnly?: boolean;
};

/**
 * The products of the deal order: deal price editable (the minimum price beside it, a lower
 * price highlighted), quantity default 1, line totals and the 总价 row. Figures here are a
 * preview: the server computes the order's totals from the catalogue.
 */
export const OrderLinesTable = ({ lines, onChange, isReadOnly }: Props) => {
  const patch = (key: string, change: Partial<OrderLine>) =>
    onChange(lines.map((l) => (l.key === key ? { ...l, ...change } : l)));
  return (
    <Table<OrderLine>
      size="small"
      rowKey="key"
      pagination={false}
      dataSource={lines}
      locale={{ emptyText: '请点击“添加产品”选择产品' }}
      scroll={{ x: 860 }}
      columns={[
        {
          title: '产品',
          key: 'name',
          render: (_, l) => (
            <>
              <div>{l.name}</div>
              {l.specName && <Typography.Text type="secondary">{l.specName}</Typography.Text>}
            </>
          ),
        },
        { title: '售价(元)', dataIndex: 'listPrice', width: 110, align: 'right', render: formatMoney },
        { title: '最低价(元)', dataIndex: 'minimumPrice', width: 110, align: 'right', render: formatMoney },
        {
          title: '成交价(元)',
          key: 'price',
          width: 150,
          render: (_, l) => (
            <>
              <YuanInput
                size="small"
                value={l.price}
                disabled={isReadOnly}
                status={isBelowMinimum(l) || l.price === '' ? 'error' : undefined}
                aria-label={`${l.name}${l.specName}成交价`}
                onChange={(price) => patch(l.key, { price })}
              />
              {isBelowMinimum(l) && (
                <Typography.Text type="danger" style={{ fontSize: 12 }}>
                  低于最低价
                </Typography.Text>
              )}
            </>
          ),
        },
        {
          title: '数量',
          key: 'num',
          width: 100,
          render: (_, l) => (
            <InputNumber
              size="small"
              min={0}
              max={ORDER_LIMITS.qtyMax}
              precision={0}
              value={l.num}
              disabled={isReadOnly}
              aria-label={`${l.name}${l.specName}数量`}
              onChange={(num) => patch(l.key, { num: num ?? 0 })}
            />
          ),
        },
        {
          title: '小计(元)',
          key: 'total',
          width: 130,
          align: 'right',
          render: (_, l) => formatMoney(lineTotal(l) ?? null),
        },
        {
          title: '操作',
          key: 'remove',
          width: 60,
          render: (_, l) => (
            <Button
              type="text"
              danger
              size="small"
              disabled={isReadOnly}
              icon={<DeleteOutlined />}
              aria-label={`移除${l.name}`}
              onClick={() => onChange(lines.filter((x) => x.key !== l.key))}
            />
          ),
        },
      ]}
      summary={() =>
        lines.length > 0 ? (
          // SPEC §9: the summary row is labelled 总价, its non-numeric columns (unit prices) say N/A
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}>
              <Typography.Text strong>总价</Typography.Text>
            </Table.Summary.Cell>
            {[1, 2, 3].map((i) => (
              <Table.Summary.Cell key={i} index={i} align="right">
                {SUMMARY_NA}
              </Table.Summary.Cell>
            ))}
            <Table.Summary.Cell index={4} align="center">
              {lines.reduce((n, l) => n + l.num, 0)}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={5} align="right">
              <Typography.Text strong type="danger" data-testid="order-total">
                ¥{formatMoney(ordersTotal(lines))}
              </Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={6} />
          </Table.Summary.Row>
        ) : null
      }
    />
  );
};
