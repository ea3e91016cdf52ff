import { FeedbackModal } from './feedback.modal.js';
import { ForgotModal } from './forgot.modal.js';
import { InfoModal } from './info.modal.js';
import { LoginModal } from './login.modal.js';
import { RegisterModal } from './register.modal.js';
import { TestModal } from './test.modal.js';

/** Every app-wide modal of spec section 2, each shown when its flag in the store is on (the pay modal lives on /vip). */
export function ModalHost() {
  return (
    <>
      <LoginModal />
      <RegisterModal />
      <ForgotModal />
      <FeedbackModal />
      <InfoModal />
      <TestModal />
    </>
  );
}
