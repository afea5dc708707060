import { DownloadOutlined, SafetyOutlined } from '@ant-design/icons';
import type { BlackCheckResult, UploadResult } from '@crm/contracts';
import { Alert, Button, Card, Col, Form, Input, Row, Space, Statistic, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useButtonLock } from '../../../components/useButtonLock';
import { useBlackCheck } from '../api';
import { NumberFileInput } from '../components/NumberFileInput';

type Values = { file: UploadResult | null; numbers: string };

/** /call/blackcheck: filter a number list against the blacklist; the split result downloads as .xlsx. */
export const BlackCheckPage = () => {
  const [form] = Form.useForm<Values>();
  const check = useBlackCheck();
  const [result, setResult] = useState<BlackCheckResult | null>(null);

  const [submit, isLocked] = useButtonLock(async () => {
    const v = form.getFieldsValue();
    if (!v.file && !(v.numbers ?? '').trim()) {
      form.setFields([{ name: 'numbers', errors: ['请上传号码文件或输入号码'] }]);
      return;
    }
    try {
      setResult(await check.mutateAsync({ fileId: v.file?.id, numbers: v.file ? undefined : v.numbers }));
    } catch {
      // the http client has shown the message
    }
  });

  return (
    <Row gutter={16}>
      <Col xs={24} lg={12}>
        <Card title="黑名单检测">
          <Typography.Paragraph type="secondary">
            上传号码文件或直接粘贴号码，系统会剔除黑名单中的号码和无效号码，结果可下载为 Excel（可拨打号码 / 黑名单号码 / 无效号码
            三个工作表）。
          </Typography.Paragraph>
          <Form form={form} layout="vertical" initialValues={{ file: null, numbers: '' }}>
            <Form.Item name="file" label="号码文件（.xlsx / .txt）">
              <NumberFileInput />
            </Form.Item>
            <Form.Item name="numbers" label="或输入号码（每行一个）">
              <Input.TextArea rows={8} placeholder={'13800000000\n13900000000'} />
            </Form.Item>
            <Button type="primary" icon={<SafetyOutlined />} loading={isLocked || check.isPending} onClick={() => submit()}>
              开始检测
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title="检测结果">
          {!result ? (
            <Typography.Text type="secondary">检测完成后在这里查看结果</Typography.Text>
          ) : (
            <Space direction="vertical" size={16} style={{ width: '100%' }}>
              <Row gutter={16}>
                <Col span={6}>
                  <Statistic title="号码总数" value={result.total} />
                </Col>
                <Col span={6}>
                  <Statistic title="可拨打" value={result.cleanCount} valueStyle={{ color: '#52c41a' }} />
                </Col>
                <Col span={6}>
                  <Statistic title="黑名单" value={result.blackCount} valueStyle={{ color: '#ff4d4f' }} />
                </Col>
                <Col span={6}>
                  <Statistic title="无效号码" value={result.invalidCount} />
                </Col>
              </Row>
              {result.blackSample.length > 0 ? (
                <div>
                  <Typography.Text type="secondary">
                    命中的黑名单号码
                    {result.blackCount > result.blackSample.length ? `（前 ${result.blackSample.length} 个）` : ''}：
                  </Typography.Text>
                  <div style={{ marginTop: 8 }}>
                    {result.blackSample.map((n) => (
                      <Tag key={n} color="red" style={{ marginBottom: 6 }}>
                        {n}
                      </Tag>
                    ))}
                  </div>
                </div>
              ) : (
                <Alert type="success" showIcon message="没有号码命中黑名单" />
              )}
              <Button type="primary" icon={<DownloadOutlined />} href={result.url} download>
                下载检测结果
              </Button>
            </Space>
          )}
        </Card>
      </Col>
    </Row>
  );
};
