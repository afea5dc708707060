import { type AccountLogRow, type ContractAccountBody, isValidCreditCode } from '@crm/contracts';
import { Alert, App, Button, Card, Descriptions, Form, Input, Radio, Skeleton, Table, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useTablePaging } from '../../../components/useTablePaging';
import { useAccountLog, useContractAccount, useSaveAccount } from '../api';

/** Why a 统一社会信用代码 is refused (GB 32100-2015), checked while typing; the server checks it again. */
export const creditCodeProblem = (raw: string | undefined): string | null => {
  const code = (raw ?? '').trim().toUpperCase();
  if (!code) return '请输入统一社会信用代码';
  if (code.length !== 18) return '统一社会信用代码应为18位';
  if (!/^[0-9A-HJ-NPQRTUWXY]{18}$/.test(code)) return '统一社会信用代码只能包含数字和大写字母（不含I、O、S、V、Z）';
  return isValidCreditCode(code) ? null : '统一社会信用代码校验位不正确，请核对';
};

const STATUS_COLOR: Record<number, string> = { 0: 'default', 1: 'success', 2: 'error' };

/** 电子签账户: the company's signing identity, its certificate, and the log of signing credits used. */
export const AccountPanel = () => {
  const [form] = Form.useForm<ContractAccountBody>();
  const { message } = App.useApp();
  const account = useContractAccount();
  const save = useSaveAccount();
  const paging = useTablePaging(20);
  const log = useAccountLog(paging.page, paging.limit);
  const a = account.data;

  useEffect(() => {
    if (a)
      form.setFieldsValue({
        company_name: a.company_name,
        credit_code: a.credit_code,
        legal_rep: a.legal_rep,
        status: (a.status === 2 ? 2 : 1) as 1 | 2,
      });
  }, [a, form]);

  if (!a) return <Skeleton active />;

  const submit = async (v: ContractAccountBody) => {
    try {
      await save.mutateAsync({ ...v, credit_code: v.credit_code.trim().toUpperCase(), company_name: v.company_name.trim() });
    } catch {
      return;
    }
    message.success('操作成功');
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <Card size="small" title="企业签署信息" style={{ width: 520 }}>
          {a.status === 0 && (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} message="尚未完善电子签企业信息，完善后才能发起签署" />
          )}
          <Form form={form} layout="vertical" onFinish={submit}>
            <Form.Item
              label="企业名称"
              name="company_name"
              rules={[
                { required: true, whitespace: true, message: '请输入企业名称' },
                { max: 60, message: '企业名称最多60个字符' },
              ]}
            >
              <Input maxLength={60} placeholder="与营业执照一致" />
            </Form.Item>
            <Form.Item
              label="统一社会信用代码"
              name="credit_code"
              validateFirst
              rules={[
                {
                  validator: (_, v?: string) => {
                    const problem = creditCodeProblem(v);
                    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
                  },
                },
              ]}
            >
              <Input maxLength={18} placeholder="18位，如 91350100M000100Y43" style={{ textTransform: 'uppercase' }} />
            </Form.Item>
            <Form.Item
              label="法定代表人"
              name="legal_rep"
              rules={[
                { required: true, whitespace: true, message: '请输入法定代表人' },
                { max: 30, message: '法定代表人最多30个字符' },
              ]}
            >
              <Input maxLength={30} />
            </Form.Item>
            <Form.Item label="账户状态" name="status">
              <Radio.Group
                options={[
                  { value: 1, label: '正常' },
                  { value: 2, label: '停用' },
                ]}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              保存
            </Button>
          </Form>
        </Card>
        <Card size="small" title="账户概况" style={{ flex: 1, minWidth: 360 }}>
          <Descriptions column={1} size="small" styles={{ label: { width: 110 } }}>
            <Descriptions.Item label="状态">
              <Tag color={STATUS_COLOR[a.status]}>{a.status_name}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="已用签署次数">
              <Typography.Text strong>{a.credits_used}</Typography.Text> 次
            </Descriptions.Item>
            <Descriptions.Item label="短信通道">
              {a.sms_live === 1 ? '短信平台' : <Tag color="orange">演示线路（验证码显示在合同详情中）</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label="企业证书">
              {a.cert ? (
                <span style={{ wordBreak: 'break-all' }}>
                  {a.cert.subject}
                  <br />
                  <Typography.Text type="secondary">有效期至 {a.cert.not_after}</Typography.Text>
                </span>
              ) : (
                '保存企业信息后自动生成'
              )}
            </Descriptions.Item>
            {a.cert && (
              <Descriptions.Item label="证书指纹">
                <Typography.Text style={{ fontSize: 12, wordBreak: 'break-all' }}>{a.cert.fingerprint}</Typography.Text>
              </Descriptions.Item>
            )}
          </Descriptions>
        </Card>
      </div>
      <Card size="small" title="签署次数消耗记录">
        <Table<AccountLogRow>
          rowKey="id"
          size="small"
          loading={log.isFetching}
          dataSource={log.data?.list}
          locale={{ emptyText: '暂无消耗记录' }}
          pagination={paging.pagination(log.data?.count ?? 0)}
          columns={[
            { title: '时间', dataIndex: 'created_at', width: 170 },
            { title: '合同编号', dataIndex: 'contract_no', width: 200 },
            { title: '类型', dataIndex: 'kind', width: 120 },
            { title: '消耗次数', dataIndex: 'credits', width: 100, align: 'right' },
            { title: '操作人', dataIndex: 'staff_name' },
          ]}
        />
      </Card>
    </div>
  );
};
