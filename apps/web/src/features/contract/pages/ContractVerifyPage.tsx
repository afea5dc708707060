import { InboxOutlined } from '@ant-design/icons';
import type { ContractVerify } from '@crm/contracts';
import { Alert, Descriptions, Result, Spin, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { failureText, verifyContractPdf } from '../publicApi';
import styles from './PublicPage.module.css';

/** 20 MB: a contract PDF with a certificate page is far below it. */
const MAX_BYTES = 20 * 1024 * 1024;

/**
 * /verify — anyone with a contract PDF checks it (no login): is it an unchanged archived contract
 * of this platform, which company sealed it and when. The file goes to the server, which checks
 * the digital signature over the whole file and looks up its fingerprint.
 */
export const ContractVerifyPage = () => {
  const [result, setResult] = useState<ContractVerify | null>(null);
  const [fileName, setFileName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isChecking, setChecking] = useState(false);

  useEffect(() => {
    document.title = '合同验证';
  }, []);

  const check = async (file: File) => {
    setResult(null);
    setError(null);
    setFileName(file.name);
    if (!/\.pdf$/i.test(file.name) && file.type !== 'application/pdf') return setError('请上传PDF文件');
    if (file.size > MAX_BYTES) return setError('文件过大，请上传20MB以内的PDF文件');
    setChecking(true);
    try {
      setResult(await verifyContractPdf(file));
    } catch (err) {
      setError(failureText(err));
    } finally {
      setChecking(false);
    }
  };

  const isValid = result?.is_valid === 1;

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <span className={styles.brand}>电子合同验证</span>
      </header>
      <main className={styles.main}>
        <section className={styles.card}>
          <Typography.Paragraph style={{ marginBottom: 12 }}>
            上传本平台归档的合同PDF，校验文件是否完整未被篡改，以及由哪家企业签章、何时签章。文件仅用于校验，不会被保存。
          </Typography.Paragraph>
          <Upload.Dragger
            accept=".pdf,application/pdf"
            multiple={false}
            showUploadList={false}
            disabled={isChecking}
            beforeUpload={(file) => {
              void check(file);
              return Upload.LIST_IGNORE;
            }}
            aria-label="上传合同PDF"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">点击或拖拽合同PDF到此处</p>
            <p className="ant-upload-hint">仅支持 PDF 文件，20MB 以内</p>
          </Upload.Dragger>
        </section>
        {isChecking && (
          <section className={styles.card} style={{ textAlign: 'center' }}>
            <Spin tip="正在校验…">
              <div style={{ height: 48 }} />
            </Spin>
          </section>
        )}
        {error && <Alert type="error" showIcon message={error} role="alert" />}
        {result && (
          <section className={styles.card} data-testid="verify-result">
            <Result
              style={{ padding: '8px 0' }}
              status={isValid ? 'success' : 'error'}
              title={isValid ? '验证通过：合同真实有效' : '验证未通过'}
              subTitle={result.message || (isValid ? '文件自归档后未被修改' : '该文件不是本平台归档的合同，或归档后已被修改')}
            />
            <Descriptions size="small" column={1} bordered styles={{ label: { width: 100 } }}>
              <Descriptions.Item label="文件">{fileName}</Descriptions.Item>
              <Descriptions.Item label="合同编号">{result.contract_no || '-'}</Descriptions.Item>
              <Descriptions.Item label="签章企业">{result.company_name || '-'}</Descriptions.Item>
              <Descriptions.Item label="签章时间">{result.sealed_at || '-'}</Descriptions.Item>
              <Descriptions.Item label="证书主体">
                <span style={{ wordBreak: 'break-all' }}>{result.signer_subject || '-'}</span>
              </Descriptions.Item>
              <Descriptions.Item label="平台记录">{result.is_known === 1 ? '有归档记录' : '无归档记录'}</Descriptions.Item>
            </Descriptions>
          </section>
        )}
      </main>
    </div>
  );
};
