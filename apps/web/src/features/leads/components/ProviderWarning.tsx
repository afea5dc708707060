import { Alert } from 'antd';

/** The data provider failed: say so plainly, while the registry's own results still show below. */
export const ProviderWarning = ({ error }: { error: string | undefined }) =>
  error ? (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      title="企业数据服务暂时不可用"
      description={`${error}。下面是本地企业库中的结果，可能不是最新或不完整。`}
    />
  ) : null;
