import { useState, type FormEvent } from 'react';
import { modalHidden } from '../store/app.slice.js';
import { useAppDispatch } from '../store/hooks.js';
import { showToast } from '@ipdata/web-kit/toast';
import { TextField } from './account-fields.js';
import { useFeedbackAddMutation } from './account.api.js';
import { Modal } from './modal.js';

export const FEEDBACK_DONE = '感谢您的反馈，我们会尽快处理';
const CATEGORIES = ['建议', '问题', '数据纠错', '其他'] as const;

/** Feedback: a category, the text, an optional contact; stored by the content service for the team. */
export function FeedbackModal() {
  const dispatch = useAppDispatch();
  const [category, setCategory] = useState<string>(CATEGORIES[0]);
  const [content, setContent] = useState('');
  const [contact, setContact] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [send, state] = useFeedbackAddMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!content.trim()) return setProblem('请填写反馈内容');
    setProblem(null);
    const answer = await send({ category, content: content.trim(), contact: contact.trim(), page: window.location.pathname });
    if ('error' in answer) return;
    setContent('');
    dispatch(modalHidden('feedback'));
    dispatch(showToast('success', FEEDBACK_DONE));
  };

  return (
    <Modal name="feedback" title="意见反馈">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <label className="field">
          <span>类型</span>
          <select value={category} onChange={(event) => setCategory(event.target.value)}>
            {CATEGORIES.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>反馈内容</span>
          <textarea
            rows={5}
            value={content}
            onChange={(event) => setContent(event.target.value)}
            aria-invalid={problem ? true : undefined}
          />
          {problem && <span className="field-error">{problem}</span>}
        </label>
        <TextField label="联系方式（手机、邮箱或 QQ，选填）" value={contact} onChange={setContact} />
        <button type="submit" disabled={state.isLoading}>
          提交
        </button>
      </form>
    </Modal>
  );
}
