import { selectContacts } from '../store/app.slice.js';
import { useAppSelector } from '../store/hooks.js';
import type { ContactKind } from '../api/face-a.types.js';
import { Modal } from './modal.js';

const KIND_NAMES: Record<ContactKind, string> = { phone: '电话', email: '邮箱', qq: 'QQ', qq_code: 'QQ 群', wx_code: '微信' };

/** Contact information: the site's contact lists from web_init (userData). */
export function InfoModal() {
  const contacts = useAppSelector(selectContacts);
  const kinds = (Object.keys(KIND_NAMES) as ContactKind[]).filter((kind) => contacts[kind].length > 0);
  return (
    <Modal name="info" title="联系我们">
      {kinds.length === 0 ? (
        <p className="muted">暂无联系方式</p>
      ) : (
        <dl className="contact-list">
          {kinds.map((kind) => (
            <div key={kind}>
              <dt>{KIND_NAMES[kind]}</dt>
              {contacts[kind].map((item) => (
                <dd key={item.value}>
                  {item.name}：{kind === 'email' ? <a href={`mailto:${item.value}`}>{item.value}</a> : item.value}
                </dd>
              ))}
            </div>
          ))}
        </dl>
      )}
    </Modal>
  );
}
