import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

/** A route the role does not grant: said plainly instead of a page of failing calls. */
export const ForbiddenPage = () => {
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="无权访问"
      subTitle="抱歉，您的角色没有访问该页面的权限，请联系管理员。"
      extra={
        <Button type="primary" onClick={() => navigate('/home/Index')}>
          返回工作台
        </Button>
      }
    />
  );
};
