import { CONTRACT_LIMITS } from '@crm/contracts';
import { Alert, Button, Checkbox, Form, Input, Result, Segmented, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../../../api/http';
import { formatMoney } from '../../../components/money';
import { PdfPages } from '../components/PdfPages';
import { SignaturePad } from '../components/SignaturePad';
import { failureText, LINK_DEAD_CODES, requestSignCode, submitSignature, useSignView } from '../publicApi';
import styles from './PublicPage.module.css';

type Confirm = { name: string; phone: string };

/** Counts seconds down to 0 (the resend wait of the one-time code). */
const useCountdown = () => {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const t = window.setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => window.clearTimeout(t);
  }, [left]);
  return [left, setLeft] as const;
};

/**
 * /sign/:token — the customer's signing page (no login, phone first): read the whole contract,
 * confirm name, phone and amount to get a one-time code, sign by hand (or type the name), done.
 */
export const ContractSignPage = () => {
  const { token = '' } = useParams();
  const view = useSignView(token);
  const [form] = Form.useForm<Confirm>();
  const [hasRead, setRead] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resendIn, setResendIn] = useCountdown();
  const [code, setCode] = useState('');
  const [mode, setMode] = useState<'draw' | 'type'>('draw');
  const [png, setPng] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [deadLink, setDeadLink] = useState<string | null>(null);
  const [isSending, setSending] = useState(false);
  const [isSigning, setSigning] = useState(false);
  const [signedAt, setSignedAt] = useState<string | null>(null);

  useEffect(() => {
    document.title = '合同签署';
  }, []);
  useEffect(() => {
    if (view.data) form.setFieldsValue({ name: view.data.signer_name });
  }, [view.data, form]);

  const fail = (err: unknown) => {
    if (err instanceof ApiError && LINK_DEAD_CODES.has(err.code)) setDeadLink(err.message);
    else setError(failureText(err));
  };

  const sendCode = async () => {
    const v = view.data;
    if (!v) return;
    setError(null);
    let values: Confirm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSending(true);
    try {
      const res = await requestSignCode({ token, price: v.amount, name: values.name.trim(), phone: values.phone.trim() });
      setSentTo(res.phone_masked);
      setResendIn(res.resend_in || CONTRACT_LIMITS.otpResendSeconds);
    } catch (err) {
      fail(err);
    } finally {
      setSending(false);
    }
  };

  const sign = async () => {
    setError(null);
    if (!/^\d{6}$/.test(code)) return setError('请输入6位验证码');
    if (mode === 'draw' && !png) return setError('请手写签名');
    if (mode === 'type' && !typed.trim()) return setError('请输入您的姓名作为签名');
    setSigning(true);
    try {
      const res = await submitSignature({
        token,
        code,
        signature_png: mode === 'draw' ? (png ?? '') : '',
        typed_name: mode === 'type' ? typed.trim() : '',
      });
      setSignedAt(res.signed_at);
      await view.refetch();
    } catch (err) {
      fail(err);
    } finally {
      setSigning(false);
    }
  };

  const v = view.data;
  const shell = (children: React.ReactNode) => (
    <div className={styles.page}>
      <header className={styles.header}>
        <span className={styles.brand}>电子合同签署</span>
      </header>
      <main className={styles.main}>{children}</main>
    </div>
  );

  if (view.isLoading) return shell(<Skeleton active paragraph={{ rows: 8 }} />);
  if (deadLink || view.isError) {
    const err = view.error;
    const msg = deadLink ?? (err instanceof ApiError ? err.message : '签署链接无效或已失效');
    const isExpired = msg.includes('过期');
    return shell(
      <Result
        status={isExpired ? 'warning' : 'error'}
        title={isExpired ? '签署链接已过期' : '无法打开签署链接'}
        subTitle={`${msg}。如需签署，请联系发送合同的工作人员重新发送链接。`}
      />,
    );
  }
  if (!v) return shell(null);
  if (signedAt || v.is_signed === 1)
    return shell(
      <Result
        status="success"
        title="签署完成"
        subTitle={`您已于 ${signedAt || v.signed_at} 签署《${v.title}》，签署后的合同由 ${v.company_name} 归档。`}
        extra={
          <a href={v.pdf_url} target="_blank" rel="noreferrer">
            查看合同
          </a>
        }
      />,
    );

  return shell(
    <>
      <section className={styles.card}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {v.title}
        </Typography.Title>
        <dl className={styles.facts}>
          <dt>合同编号</dt>
          <dd>{v.contract_no}</dd>
          <dt>甲方</dt>
          <dd>{v.company_name}</dd>
          <dt>乙方</dt>
          <dd>{v.customer_name}</dd>
          <dt>合同金额</dt>
          <dd>
            <strong>¥{formatMoney(v.amount)}</strong>
            <br />
            <span className={styles.muted}>{v.amount_upper}</span>
          </dd>
          <dt>链接有效期</dt>
          <dd>{v.expires_at}</dd>
        </dl>
      </section>

      <section className={styles.card}>
        <div className={styles.sectionHead}>
          <strong>第一步：阅读合同全文</strong>
          <a href={v.pdf_url} target="_blank" rel="noreferrer">
            下载PDF
          </a>
        </div>
        <div className={styles.pdfBox}>
          <PdfPages url={v.pdf_url} />
        </div>
        <Checkbox checked={hasRead} onChange={(e) => setRead(e.target.checked)} style={{ marginTop: 12 }}>
          我已完整阅读并同意上述合同全部条款
        </Checkbox>
      </section>

      {v.can_sign !== 1 ? (
        <Alert type="info" showIcon message={v.wait_reason || '暂时无法签署，请稍后再试'} />
      ) : (
        <section className={styles.card} aria-disabled={!hasRead}>
          <strong>第二步：身份确认</strong>
          <Form form={form} layout="vertical" style={{ marginTop: 12 }} disabled={!hasRead} requiredMark={false}>
            <Form.Item
              label="签署人姓名"
              name="name"
              rules={[
                { required: true, whitespace: true, message: '请输入姓名' },
                { max: 30, message: '姓名最多30个字符' },
              ]}
            >
              <Input placeholder="请输入您的姓名" maxLength={30} autoComplete="name" />
            </Form.Item>
            <Form.Item
              label={`手机号（合同预留：${v.phone_masked}）`}
              name="phone"
              rules={[
                { required: true, message: '请输入手机号' },
                { pattern: /^1\d{10}$/, message: '请输入正确的11位手机号' },
              ]}
            >
              <Input placeholder="请输入完整手机号" maxLength={11} inputMode="numeric" autoComplete="tel" />
            </Form.Item>
            <Typography.Paragraph type="secondary" style={{ fontSize: 13 }}>
              获取验证码即表示您确认合同金额为 ¥{formatMoney(v.amount)}（{v.amount_upper}）。
            </Typography.Paragraph>
            <div className={styles.codeRow}>
              <Input
                aria-label="验证码"
                placeholder="6位验证码"
                maxLength={CONTRACT_LIMITS.otpDigits}
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              />
              <Button onClick={sendCode} loading={isSending} disabled={!hasRead || resendIn > 0}>
                {resendIn > 0 ? `${resendIn}秒后重发` : sentTo ? '重新获取' : '获取验证码'}
              </Button>
            </div>
            {sentTo && (
              <Typography.Text type="success" style={{ fontSize: 13 }}>
                验证码已发送至 {sentTo}，{CONTRACT_LIMITS.otpMinutes}分钟内有效
              </Typography.Text>
            )}
          </Form>

          <div style={{ marginTop: 20 }}>
            <strong>第三步：签名</strong>
            <Segmented
              block
              style={{ margin: '12px 0' }}
              value={mode}
              onChange={(m) => setMode(m as 'draw' | 'type')}
              options={[
                { value: 'draw', label: '手写签名' },
                { value: 'type', label: '输入姓名' },
              ]}
              disabled={!hasRead}
            />
            {mode === 'draw' ? (
              <SignaturePad onChange={setPng} />
            ) : (
              <Input
                aria-label="签名姓名"
                placeholder="请输入您的姓名作为签名"
                maxLength={CONTRACT_LIMITS.typedName}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                disabled={!hasRead}
                style={{ fontSize: 20, fontFamily: '"STKaiti","KaiTi",serif' }}
              />
            )}
          </div>
          {error && <Alert type="error" showIcon message={error} style={{ marginTop: 16 }} role="alert" />}
          <Button
            type="primary"
            size="large"
            block
            style={{ marginTop: 16 }}
            loading={isSigning}
            disabled={!hasRead || !sentTo}
            onClick={sign}
          >
            确认签署
          </Button>
          {!hasRead && (
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8, textAlign: 'center' }}>
              请先阅读合同并勾选同意
            </Typography.Text>
          )}
        </section>
      )}
      {v.can_sign !== 1 && error && <Alert type="error" showIcon message={error} role="alert" />}
      <footer className={styles.footer}>
        签署过程全程记录（时间、IP、设备），签署后的合同加盖平台数字签名，可在 <a href="/verify">合同验证</a> 页面校验。
      </footer>
    </>,
  );
};
