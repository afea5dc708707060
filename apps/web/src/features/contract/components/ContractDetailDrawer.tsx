import {
  CONTRACT_FIELDS,
  CONTRACT_STATUS,
  type ContractDetail,
  SEAL_APPROVAL_LABEL,
  SIGN_ORDER_LABEL,
  SIGNER_PARTY,
  type Signer,
} from '@crm/contracts';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Drawer,
  Empty,
  Result,
  Skeleton,
  Space,
  Table,
  Tabs,
  Tag,
  Timeline,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { formatMoney } from '../../../components/money';
import { bestPdf, useContractDetail } from '../api';
import { DiscardDialog, downloadContract, SignLinkDialog, useConfirmArchive } from './ContractActions';
import { ContractStatusTag } from './ContractStatusTag';
import { PdfPages } from './PdfPages';

type Props = { id: number | null; onClose: () => void; onOpen?: (id: number) => void };

const SIGNER_STATE: Record<number, { label: string; color: string }> = {
  0: { label: '等待中', color: 'default' },
  1: { label: '待签署', color: 'processing' },
  2: { label: '已签署', color: 'success' },
};

const FIELD_LABEL: Record<string, string> = Object.fromEntries(CONTRACT_FIELDS.map((f) => [f.key, f.label]));

const Signers = ({ d }: { d: ContractDetail }) => (
  <Table<Signer>
    size="small"
    rowKey="id"
    pagination={false}
    dataSource={d.signers}
    locale={{ emptyText: '暂无签署方' }}
    columns={[
      { title: '签署方', dataIndex: 'party_name', width: 110 },
      { title: '名称', dataIndex: 'name', ellipsis: true },
      { title: '手机号', dataIndex: 'phone', width: 120, render: (v: string) => v || '-' },
      {
        title: '状态',
        dataIndex: 'state',
        width: 90,
        render: (v: number) => <Tag color={SIGNER_STATE[v]?.color}>{SIGNER_STATE[v]?.label ?? '-'}</Tag>,
      },
      {
        title: '签署时间 / 验证码',
        key: 'at',
        width: 190,
        render: (_, s) =>
          s.signed_at ? (
            <Tooltip title={`IP ${s.ip || '-'}；${s.user_agent || ''}`}>{s.signed_at}</Tooltip>
          ) : s.party === SIGNER_PARTY.customer && s.demo_code ? (
            <Tooltip title="演示线路未接入真实短信：客户获取的验证码显示在这里">
              <Tag color="orange" data-testid="demo-code">
                演示验证码 {s.demo_code}
              </Tag>
            </Tooltip>
          ) : s.link_expires_at && s.party === SIGNER_PARTY.customer ? (
            <Typography.Text type="secondary">链接有效至 {s.link_expires_at.slice(0, 16)}</Typography.Text>
          ) : (
            '-'
          ),
      },
    ]}
  />
);

const Audit = ({ d }: { d: ContractDetail }) =>
  d.audit.length === 0 ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />
  ) : (
    <>
      {d.audit_ok !== 1 && (
        <Alert type="error" showIcon message="审计记录校验失败：记录可能被篡改" style={{ marginBottom: 12 }} />
      )}
      <Timeline
        items={d.audit.map((a) => ({
          key: a.seq,
          color: a.action === 'discard' ? 'red' : a.action === 'archive' ? 'green' : 'blue',
          children: (
            <Space direction="vertical" size={0}>
              <Space size={8} wrap>
                <Typography.Text strong>{a.action_name}</Typography.Text>
                <Typography.Text type="secondary">{a.actor}</Typography.Text>
                <Typography.Text type="secondary">{a.at}</Typography.Text>
              </Space>
              {a.detail && <Typography.Text>{a.detail}</Typography.Text>}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {a.ip && `IP ${a.ip} · `}哈希 {a.hash.slice(0, 16)}…
              </Typography.Text>
            </Space>
          ),
        }))}
      />
    </>
  );

/** 合同详情: facts, parties and their status, the signing link, the audit trail and the PDF; actions as the server allows. */
export const ContractDetailDrawer = ({ id, onClose, onOpen }: Props) => {
  const detail = useContractDetail(id);
  const d = detail.data;
  const [linkMode, setLinkMode] = useState<'send' | 'relink' | null>(null);
  const [isDiscarding, setDiscarding] = useState(false);
  const confirmArchive = useConfirmArchive();
  const pdfUrl = d ? bestPdf(d.pdf) : '';
  const customerSigner = d?.signers.find((s) => s.party === SIGNER_PARTY.customer);

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      width={960}
      destroyOnHidden
      title={
        <Space>
          <span>合同详情</span>
          {d && <ContractStatusTag status={d.status} />}
          {d && d.seal_approval > 0 && <Tag color="orange">{SEAL_APPROVAL_LABEL[d.seal_approval]}</Tag>}
        </Space>
      }
      extra={
        d && (
          <Space>
            {d.can_send === 1 && (
              <Button type="primary" onClick={() => setLinkMode('send')}>
                发起签署
              </Button>
            )}
            {d.status === CONTRACT_STATUS.signing && customerSigner && customerSigner.state !== 2 && (
              <Button onClick={() => setLinkMode('relink')}>生成签署链接</Button>
            )}
            {d.can_archive === 1 && (
              <Button type="primary" onClick={() => confirmArchive(d)}>
                归档
              </Button>
            )}
            {pdfUrl && <Button onClick={() => downloadContract(d)}>下载</Button>}
            {d.can_discard === 1 && (
              <Button danger onClick={() => setDiscarding(true)}>
                作废
              </Button>
            )}
          </Space>
        )
      }
    >
      {detail.isError ? (
        <Result status="warning" title="无法查看该合同" subTitle="合同不存在，或不在您的数据范围内" />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Tabs
          items={[
            {
              key: 'info',
              label: '合同信息',
              children: (
                <Space direction="vertical" size={16} style={{ width: '100%' }}>
                  {d.status === CONTRACT_STATUS.discarded && (
                    <Alert type="error" showIcon message={`已作废：${d.discard_reason || '-'}`} />
                  )}
                  {d.discarded_by_id > 0 && (
                    <Alert
                      type="warning"
                      showIcon
                      message="该合同已作废，作废版本已生成"
                      action={
                        onOpen && (
                          <Button size="small" onClick={() => onOpen(d.discarded_by_id)}>
                            查看作废版本
                          </Button>
                        )
                      }
                    />
                  )}
                  <Descriptions bordered size="small" column={2} styles={{ label: { width: 110 } }}>
                    <Descriptions.Item label="合同编号">{d.contract_no}</Descriptions.Item>
                    <Descriptions.Item label="合同名称">{d.title}</Descriptions.Item>
                    <Descriptions.Item label="客户">{d.customer_name || '-'}</Descriptions.Item>
                    <Descriptions.Item label="负责人">{d.owner_name || '-'}</Descriptions.Item>
                    <Descriptions.Item label="合同金额">
                      <Typography.Text strong>¥{formatMoney(d.amount)}</Typography.Text>
                      <Typography.Text type="secondary">（{d.amount_upper}）</Typography.Text>
                    </Descriptions.Item>
                    <Descriptions.Item label="签署顺序">{SIGN_ORDER_LABEL[d.sign_order] ?? '-'}</Descriptions.Item>
                    <Descriptions.Item label="使用印章">{d.seal_name || '-'}</Descriptions.Item>
                    <Descriptions.Item label="版本">V{d.version}</Descriptions.Item>
                    <Descriptions.Item label="创建时间">{d.created_at}</Descriptions.Item>
                    <Descriptions.Item label="签署完成">{d.signed_at || '-'}</Descriptions.Item>
                    <Descriptions.Item label="归档时间">{d.archived_at || '-'}</Descriptions.Item>
                    <Descriptions.Item label="归档文件摘要">
                      {d.archived_sha256 ? (
                        <Typography.Text copyable={{ text: d.archived_sha256 }} style={{ fontSize: 12 }}>
                          SHA-256 {d.archived_sha256.slice(0, 16)}…
                        </Typography.Text>
                      ) : (
                        '-'
                      )}
                    </Descriptions.Item>
                  </Descriptions>
                  <Card size="small" title="签署方">
                    <Signers d={d} />
                  </Card>
                  {Object.keys(d.fields).length > 0 && (
                    <Card size="small" title="合同字段">
                      <Descriptions size="small" column={2}>
                        {Object.entries(d.fields).map(([key, value]) => (
                          <Descriptions.Item key={key} label={FIELD_LABEL[key] ?? key}>
                            <span style={{ whiteSpace: 'pre-wrap' }}>{value || '-'}</span>
                          </Descriptions.Item>
                        ))}
                      </Descriptions>
                    </Card>
                  )}
                  <Card size="small" title="产品明细">
                    <Table
                      size="small"
                      rowKey={(p) => `${p.name}-${p.spec}`}
                      pagination={false}
                      dataSource={d.products}
                      locale={{ emptyText: '暂无产品' }}
                      columns={[
                        { title: '产品名称', key: 'name', render: (_, p) => (p.spec ? `${p.name}（${p.spec}）` : p.name) },
                        { title: '单价(元)', dataIndex: 'price', align: 'right', render: formatMoney },
                        { title: '数量', dataIndex: 'num', align: 'right', width: 80 },
                        { title: '小计(元)', dataIndex: 'total', align: 'right', render: formatMoney },
                      ]}
                    />
                  </Card>
                  {d.payment_terms.length > 0 && (
                    <Card
                      size="small"
                      title="付款条款（分期）"
                      extra={
                        <Typography.Text type="secondary">
                          {d.receipt_plan_ids.length > 0
                            ? `已生成回款计划 ${d.receipt_plan_ids.length} 期`
                            : '归档时生成回款计划'}
                        </Typography.Text>
                      }
                    >
                      <Table
                        size="small"
                        rowKey={(_, i) => String(i)}
                        pagination={false}
                        dataSource={d.payment_terms}
                        columns={[
                          { title: '期数', key: 'n', width: 70, render: (_, __, i) => `第${i + 1}期` },
                          { title: '金额(元)', dataIndex: 'amount', align: 'right', render: formatMoney },
                          { title: '付款日期', dataIndex: 'plan_at' },
                          { title: '备注', dataIndex: 'remark', render: (r: string) => r || '-' },
                        ]}
                      />
                    </Card>
                  )}
                </Space>
              ),
            },
            {
              key: 'pdf',
              label: '合同文件',
              children: pdfUrl ? (
                <Space direction="vertical" style={{ width: '100%' }}>
                  <Typography.Text type="secondary">
                    当前文件：
                    {d.pdf.dismissed ? '作废版' : d.pdf.archived ? '归档版（含签署证书页）' : d.pdf.signed ? '签署版' : '草稿'}
                  </Typography.Text>
                  <div style={{ background: '#f0f2f5', padding: 12, maxHeight: 'calc(100vh - 220px)', overflow: 'auto' }}>
                    <PdfPages url={pdfUrl} maxWidth={640} withToken />
                  </div>
                </Space>
              ) : (
                <Empty description="暂无合同文件" />
              ),
            },
            { key: 'audit', label: '操作记录', children: <Audit d={d} /> },
          ]}
        />
      )}
      <SignLinkDialog contractId={linkMode && d ? d.id : null} mode={linkMode ?? 'send'} onClose={() => setLinkMode(null)} />
      <DiscardDialog contract={isDiscarding && d ? d : null} onClose={() => setDiscarding(false)} />
    </Drawer>
  );
};
