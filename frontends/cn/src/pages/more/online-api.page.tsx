import { useEffect, useId, useState, type FormEvent } from 'react';
import { platOf } from '../../api/platform.js';
import { selectToken } from '../../store/user.slice.js';
import { useAppSelector } from '../../store/hooks.js';
import { readCalls, type DocCall } from './openapi-doc.js';

/** Sends one call as the app does (form-data POST or GET query, `plat` and `token` headers) and returns the raw answer. */
async function tryCall(call: DocCall, values: Record<string, string>, token: string): Promise<string> {
  const headers: Record<string, string> = { plat: platOf(navigator.userAgent) };
  if (token) headers['token'] = token;
  const filled = Object.entries(values).filter(([, value]) => value !== '');
  let response: Response;
  if (call.method === 'GET') {
    response = await fetch(`${call.path}?${new URLSearchParams(filled).toString()}`, { headers });
  } else {
    const form = new FormData();
    for (const [name, value] of filled) form.append(name, value);
    response = await fetch(call.path, { method: 'POST', headers, body: form });
  }
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return `HTTP ${response.status}，${type}（文件下载，请在对应页面使用）`;
  return JSON.stringify(await response.json(), null, 2);
}

function CallCard({ call }: { call: DocCall }) {
  const id = useId();
  const token = useAppSelector(selectToken);
  const [values, setValues] = useState(() => Object.fromEntries(call.fields.map((field) => [field.name, field.example])));
  const [answer, setAnswer] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setAnswer(await tryCall(call, values, token).catch(() => '请求失败，请稍后再试'));
    setBusy(false);
  };
  return (
    <details className="card api-call">
      <summary>
        <code>
          {call.method} {call.path}
        </code>{' '}
        {call.summary}
        {call.needsLogin ? '（需登录）' : ''}
      </summary>
      <form onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`} className="visually-hidden">
          试用 {call.path}
        </h3>
        {call.fields.map((field) => (
          <label key={field.name} className="field">
            <span>
              {field.name}
              {field.required ? ' *' : ''} {field.description && <small className="muted">{field.description}</small>}
            </span>
            <input
              value={values[field.name] ?? ''}
              onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
            />
          </label>
        ))}
        <button type="submit" disabled={busy}>
          发送请求
        </button>
      </form>
      {answer && (
        <pre className="api-answer" aria-live="polite">
          {answer}
        </pre>
      )}
    </details>
  );
}

/** /onlineapi: face A's calls from bff-cn's own OpenAPI document, each with a live "try it". */
export function OnlineApiPage() {
  const [calls, setCalls] = useState<DocCall[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fetch('/v1/openapi.json')
      .then((response) => response.json() as Promise<Record<string, unknown>>)
      .then((doc) => live && setCalls(readCalls(doc).filter((call) => call.path !== '/v1/openapi.json')))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);
  return (
    <section className="page">
      <h1>在线 API</h1>
      <p className="muted">
        本站页面使用的全部接口：/v1 接口为 POST（form-data），/v2 接口为 GET；请求头 plat 为 pc 或 wap，登录后带 token。返回
        {' {code, msg, data}'}，code 为 200 表示成功。展开接口可直接试用（示例值已填好）。
      </p>
      {failed && (
        <p className="field-error" role="alert">
          接口文档加载失败，请稍后再试
        </p>
      )}
      {!calls && !failed && <p className="muted">加载中…</p>}
      {calls?.map((call) => (
        <CallCard key={`${call.method} ${call.path}`} call={call} />
      ))}
    </section>
  );
}
