import { PhoneOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useButtonLock } from '../../components/useButtonLock';
import { type DialTarget, dial } from '../phoneActions';

type Props = {
  /** by customer id and the number's control (cbTacid) or contact (ccId): never by the full number */
  target: DialTarget;
  /** icon only (list rows) or 拨打 with the icon (phone tab) */
  isIconOnly?: boolean;
};

/** A 拨打 button for a customer's number; locks for 2 s after a click (SPEC §5). */
export const DialButton = ({ target, isIconOnly = false }: Props) => {
  const [onDial, isLocked] = useButtonLock(() => dial(target));
  const button = (
    <Button
      type="link"
      size="small"
      icon={<PhoneOutlined />}
      aria-label="拨打"
      disabled={isLocked}
      onClick={(e) => {
        e.stopPropagation();
        onDial();
      }}
    >
      {isIconOnly ? null : '拨打'}
    </Button>
  );
  return isIconOnly ? <Tooltip title="拨打">{button}</Tooltip> : button;
};
