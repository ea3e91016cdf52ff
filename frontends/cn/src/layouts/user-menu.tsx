import { modalShown } from '../store/app.slice.js';
import { useAppDispatch, useAppSelector } from '../store/hooks.js';
import { logout } from '../store/session.thunks.js';
import { selectIsLoggedIn, selectUnread, selectUserName } from '../store/user.slice.js';

/** The header's account corner: login and registration, or the phone as the user name, unread messages, logout. */
export function UserMenu() {
  const dispatch = useAppDispatch();
  const loggedIn = useAppSelector(selectIsLoggedIn);
  const userName = useAppSelector(selectUserName);
  const unread = useAppSelector(selectUnread);
  if (!loggedIn) {
    return (
      <div className="user-menu">
        <button type="button" onClick={() => dispatch(modalShown('login'))}>
          登录
        </button>
        <button type="button" className="button-secondary" onClick={() => dispatch(modalShown('register'))}>
          注册
        </button>
      </div>
    );
  }
  return (
    <div className="user-menu">
      <span className="user-name" data-user-name>
        {userName}
      </span>
      {unread > 0 && (
        <span className="badge" aria-label={`${unread} 条未读消息`}>
          {unread}
        </span>
      )}
      <button type="button" className="button-secondary" onClick={() => dispatch(logout())}>
        退出
      </button>
    </div>
  );
}
