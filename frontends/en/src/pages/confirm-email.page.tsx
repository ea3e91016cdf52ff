import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { webApi } from '../api/web.api.js';
import type { WebError } from '../api/base-query.js';
import { useAppDispatch } from '../store/hooks.js';
import '../forms/forms.css';

type Outcome = { state: 'confirming' } | { state: 'confirmed' } | { state: 'failed'; msg: string };
const LINK_INVALID = 'This link is invalid or has expired';

/**
 * The emailed link lands here (/confirm-email?token=...). The token is sent once per page visit:
 * a second POST of a single-use token (React's development double effects) would answer "invalid"
 * and hide the success.
 */
export function ConfirmEmailPage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const sent = useRef('');
  const [outcome, setOutcome] = useState<Outcome>(token ? { state: 'confirming' } : { state: 'failed', msg: LINK_INVALID });
  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    void dispatch(webApi.endpoints.confirmEmail.initiate({ token })).then((answer) =>
      setOutcome(
        'error' in answer ? { state: 'failed', msg: (answer.error as WebError).msg || LINK_INVALID } : { state: 'confirmed' },
      ),
    );
  }, [dispatch, token]);
  return (
    <section className="form-page account-page" aria-live="polite">
      <h1>Confirm your email</h1>
      {outcome.state === 'confirming' && <p className="loading">Confirming your email address…</p>}
      {outcome.state === 'confirmed' && (
        <p className="success-text">
          Your email address has been confirmed. You can now <Link to="/login">log in</Link>.
        </p>
      )}
      {outcome.state === 'failed' && (
        <>
          <p role="alert" className="error">
            {outcome.msg}
          </p>
          <p>
            Already confirmed? <Link to="/login">Log in</Link>. No account yet? <Link to="/signup">Sign up free</Link>.
          </p>
        </>
      )}
    </section>
  );
}
