import { useId, useState, type FormEvent } from 'react';
import { useQueryIpBatchZoneMutation, useUploadIpXlsxMutation } from '../../api/face-a.api.js';

/** Visitors' limit (VIP: 100,000), checked again by bff-cn; counted here so the visitor knows early. */
export const BATCH_VISITOR_LINES = 10_000;
const ACCEPTED_FILES = '.xlsx,.csv,.txt';

export function countLines(text: string): number {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '').length;
}

/** /piliang: many addresses at once, pasted or uploaded; the answer is an .xlsx saved by the browser. */
export function BatchPage() {
  const id = useId();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pasted, pastedState] = useQueryIpBatchZoneMutation();
  const [uploaded, uploadedState] = useUploadIpXlsxMutation();
  const busy = pastedState.isLoading || uploadedState.isLoading;
  const done = pastedState.data ?? uploadedState.data;
  const lines = countLines(text);

  const submitText = (event: FormEvent) => {
    event.preventDefault();
    if (lines === 0) return setProblem('请输入至少一个 IP 地址，每行一个');
    setProblem(null);
    uploadedState.reset();
    void pasted({ ips: text });
  };
  const submitFile = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem('请选择要上传的文件（.xlsx、.csv 或 .txt）');
    setProblem(null);
    pastedState.reset();
    void uploaded({ file });
  };

  return (
    <section className="page">
      <h1>IP 批量查询</h1>
      <p className="muted">
        每行一个 IPv4 或 IPv6 地址，最多 {BATCH_VISITOR_LINES.toLocaleString('zh-CN')} 行（VIP 会员 100,000 行）。结果以 Excel
        文件下载，顺序与输入一致，无效或保留地址会注明原因。
      </p>
      <form className="card" onSubmit={submitText} aria-labelledby={`${id}-paste`}>
        <h2 id={`${id}-paste`}>粘贴地址</h2>
        <label className="field">
          <span>IP 地址列表</span>
          <textarea
            rows={8}
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={'8.8.8.8\n114.114.114.114\n2001:4860:4860::8888'}
            spellCheck={false}
          />
        </label>
        <p className="muted" aria-live="polite">
          已输入 {lines.toLocaleString('zh-CN')} 行{lines > BATCH_VISITOR_LINES ? '，超过游客上限（VIP 会员可查询更多）' : ''}
        </p>
        <button type="submit" disabled={busy}>
          查询并导出
        </button>
      </form>
      <form className="card" onSubmit={submitFile} aria-labelledby={`${id}-upload`}>
        <h2 id={`${id}-upload`}>上传文件</h2>
        <label className="field">
          <span>Excel（第一个工作表中标题为 IP 的列或第一列）、CSV 或 TXT 文件</span>
          <input type="file" accept={ACCEPTED_FILES} onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
        </label>
        <button type="submit" disabled={busy}>
          上传并导出
        </button>
      </form>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {busy && (
        <div className="card" role="status">
          <p>
            正在查询{file && uploadedState.isLoading ? ` ${file.name}` : ` ${lines.toLocaleString('zh-CN')} 个地址`}
            ，完成后自动下载…
          </p>
          <progress className="progress" aria-label="批量查询进度" />
        </div>
      )}
      {done && !busy && (
        <p className="card" role="status">
          已导出 {done.filename}（{(done.size / 1024).toFixed(1)} KB）
        </p>
      )}
    </section>
  );
}
