/** The actions on one contract (发起签署, 重新生成链接, 归档, 作废, 下载) and their dialogs, shared by the list rows and the detail drawer. */
import { CONTRACT_LIMITS, CONTRACT_STATUS, type ContractRow, type ContractSendResult } from '@crm/contracts';
import { Alert, App, Button, Form, Input, InputNumber, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { doneFooter } from '../../../components/doneFooter';
import { downloadFile } from '../../../components/downloadFile';
import { contractPdfUrl, useArchiveContract, useDiscardContract, useNewSignLink, useSendContract } from '../api';

/** The full signing link of a sign path (`/sign/<token>`). */
export const signLinkOf = (signPath: string) => `${window.location.origin}${signPath}`;

/** The PDF a contract's 下载 gives, by its status. */
export const downloadKindOf = (status: number) =>
  status === CONTRACT_STATUS.archived
    ? 'archived'
    : status === CONTRACT_STATUS.discarded
      ? 'dismissed'
      : status === CONTRACT_STATUS.signed
        ? 'signed'
        : 'draft';

export const downloadContract = (row: Pick<ContractRow, 'id' | 'contract_no' | 'status'>) =>
  downloadFile(contractPdfUrl(row.id, downloadKindOf(row.status)), `${row.contract_no}.pdf`);

/** The link the customer opens, shown once after a send (only its hash is kept on the server). */
export const SignLinkResult = ({ result }: { result: ContractSendResult }) => {
  const { message } = App.useApp();
  const link = signLinkOf(result.sign_path);
  if (!result.sign_path)
    return (
      <Alert
        type="info"
        showIcon
        message="用印审批中"
        description="审批通过后合同将自动进入签署，届时可在合同详情中生成签署链接。"
      />
    );
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {result.seal_approval === 1 && <Alert type="warning" showIcon message="用印审批中：审批通过后客户才能签署" />}
      <Typography.Text>请将以下签署链接发送给客户（链接仅显示一次，可随时重新生成）：</Typography.Text>
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={link} aria-label="签署链接" />
        <Button
          type="primary"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(link);
              message.success('复制成功！');
            } catch {
              message.warning('复制失败，请手动选择链接复制');
            }
          }}
        >
          复制链接
        </Button>
      </Space.Compact>
      <Typography.Text type="secondary">有效期至 {result.link_expires_at}</Typography.Text>
    </Space>
  );
};

type LinkDialogProps = { contractId: number | null; mode: 'send' | 'relink'; onClose: () => void };

/** 发起签署 (a draft goes to signing) or 重新生成签署链接 (the old link stops), then the link to copy. */
export const SignLinkDialog = ({ contractId, mode, onClose }: LinkDialogProps) => {
  const send = useSendContract();
  const relink = useNewSignLink();
  const [days, setDays] = useState<number>(CONTRACT_LIMITS.linkDays);
  const [result, setResult] = useState<ContractSendResult | null>(null);
  const mutation = mode === 'send' ? send : relink;
  const close = () => {
    setResult(null);
    setDays(CONTRACT_LIMITS.linkDays);
    onClose();
  };
  const submit = async () => {
    if (contractId === null) return;
    try {
      setResult(await mutation.mutateAsync({ id: contractId, link_days: days }));
    } catch {
      // the http client has shown the server's message
    }
  };
  return (
    <Modal
      title={mode === 'send' ? '发起签署' : '重新生成签署链接'}
      open={contractId !== null}
      width={600}
      onCancel={close}
      destroyOnHidden
      footer={
        result ? (
          doneFooter(close)
        ) : (
          <Space>
            <Button onClick={close}>取消</Button>
            <Button type="primary" loading={mutation.isPending} onClick={submit}>
              {mode === 'send' ? '发起签署' : '生成新链接'}
            </Button>
          </Space>
        )
      }
    >
      {result ? (
        <SignLinkResult result={result} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          {mode === 'send' ? (
            <Typography.Paragraph style={{ marginBottom: 0 }}>
              发起后合同进入“签署中”，将按签署顺序加盖我方印章并生成客户签署链接；客户通过短信验证码确认后手写签名完成签署。
            </Typography.Paragraph>
          ) : (
            <Alert type="warning" showIcon message="生成新链接后，之前发出的签署链接将立即失效。" />
          )}
          <Space>
            <span>链接有效期</span>
            <InputNumber
              aria-label="链接有效期"
              min={1}
              max={CONTRACT_LIMITS.linkDaysMax}
              precision={0}
              value={days}
              onChange={(v) => setDays(v ?? CONTRACT_LIMITS.linkDays)}
              addonAfter="天"
              style={{ width: 140 }}
            />
            <Typography.Text type="secondary">1–{CONTRACT_LIMITS.linkDaysMax} 天</Typography.Text>
          </Space>
        </Space>
      )}
    </Modal>
  );
};

/** 作废 with a reason; the original stays, a copy stamped 已作废 is made. */
export const DiscardDialog = ({
  contract,
  onClose,
}: {
  contract: Pick<ContractRow, 'id' | 'contract_no'> | null;
  onClose: () => void;
}) => {
  const [form] = Form.useForm<{ reason: string }>();
  const discard = useDiscardContract();
  const { message, modal } = App.useApp();
  const submit = async ({ reason }: { reason: string }) => {
    if (!contract) return;
    modal.confirm({
      title: '确认作废',
      content: `合同 ${contract.contract_no} 作废后不可恢复，将生成加盖“已作废”标记的新版本。确定作废吗？`,
      okText: '确定作废',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await discard.mutateAsync({ id: contract.id, reason: reason.trim() });
        } catch {
          return;
        }
        message.success('操作成功');
        form.resetFields();
        onClose();
      },
    });
  };
  return (
    <Modal
      title="作废合同"
      open={contract !== null}
      width={600}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="作废"
      okButtonProps={{ danger: true, loading: discard.isPending }}
      cancelText="取消"
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Typography.Paragraph type="secondary">合同编号：{contract?.contract_no}</Typography.Paragraph>
        <Form.Item
          label="作废原因"
          name="reason"
          rules={[
            { required: true, whitespace: true, message: '请输入作废原因' },
            { max: CONTRACT_LIMITS.reason, message: `作废原因最多${CONTRACT_LIMITS.reason}个字符` },
          ]}
        >
          <Input.TextArea rows={3} maxLength={CONTRACT_LIMITS.reason} showCount placeholder="请输入作废原因" />
        </Form.Item>
      </Form>
    </Modal>
  );
};

/** 归档 after a confirmation: the PDF is flattened, the certificate page added and the platform signature applied. */
export const useConfirmArchive = () => {
  const archive = useArchiveContract();
  const { message, modal } = App.useApp();
  return (row: Pick<ContractRow, 'id' | 'contract_no'>) =>
    modal.confirm({
      title: '归档合同',
      content: `归档后合同 ${row.contract_no} 将加盖平台数字签名并附签署证书页，之后不可再修改。确定归档吗？`,
      okText: '确定归档',
      cancelText: '取消',
      onOk: async () => {
        let res: Awaited<ReturnType<typeof archive.mutateAsync>>;
        try {
          res = await archive.mutateAsync({ id: row.id });
        } catch {
          return;
        }
        message.success(res.receipt_plans > 0 ? `归档成功，已按付款条款生成 ${res.receipt_plans} 期回款计划` : '归档成功');
        if (res.receipt_plan_msg) message.warning(res.receipt_plan_msg);
      },
    });
};
