import { Link } from 'react-router';
import { modalShown, type ModalName } from '../store/app.slice.js';
import { useAppDispatch } from '../store/hooks.js';

const MODAL_LINKS: readonly { modal: ModalName; label: string }[] = [
  { modal: 'feedback', label: '意见反馈' },
  { modal: 'info', label: '联系我们' },
  { modal: 'test', label: '网络自测' },
];

/** The footer's links: the tools index, the API page, and the modals a visitor opens from anywhere. */
export function FooterLinks() {
  const dispatch = useAppDispatch();
  return (
    <nav aria-label="页脚" className="footer-links">
      <Link to="/tool">全部工具</Link>
      <Link to="/onlineapi">在线 API</Link>
      <Link to="/news">资讯</Link>
      <Link to="/vip">VIP 会员</Link>
      {MODAL_LINKS.map((link) => (
        <button key={link.modal} type="button" className="link-button" onClick={() => dispatch(modalShown(link.modal))}>
          {link.label}
        </button>
      ))}
    </nav>
  );
}
