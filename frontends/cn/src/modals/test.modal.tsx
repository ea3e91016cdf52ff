import { useState } from 'react';
import { faceAApi } from '../api/face-a.api.js';
import { platOf } from '../api/platform.js';
import { selectIpSelf } from '../store/app.slice.js';
import { useAppDispatch, useAppSelector } from '../store/hooks.js';
import { Modal } from './modal.js';

const ROUNDS = 3;

/** Network self-test: the visitor's address as we see it, the platform sent, and the round trip to us. */
export function TestModal() {
  const dispatch = useAppDispatch();
  const self = useAppSelector(selectIpSelf);
  const [times, setTimes] = useState<number[]>([]);
  const [running, setRunning] = useState(false);

  const run = async () => {
    setRunning(true);
    const measured: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      await dispatch(faceAApi.endpoints.ipSelfSearch.initiate(undefined, { forceRefetch: true, subscribe: false }));
      measured.push(Math.round(performance.now() - started));
    }
    setTimes(measured);
    setRunning(false);
  };

  return (
    <Modal name="test" title="网络自测">
      <dl className="facts">
        <div>
          <dt>您的 IP</dt>
          <dd>{self?.ip ?? '—'}</dd>
        </div>
        <div>
          <dt>归属地</dt>
          <dd>{self ? (self.reserved ? '保留地址' : self.area || '未知') : '—'}</dd>
        </div>
        <div>
          <dt>平台</dt>
          <dd>{platOf(navigator.userAgent) === 'wap' ? '移动端（wap）' : '电脑端（pc）'}</dd>
        </div>
        <div>
          <dt>往返延迟</dt>
          <dd aria-live="polite">{times.length > 0 ? `${times.join(' / ')} ms` : '—'}</dd>
        </div>
      </dl>
      <button type="button" disabled={running} onClick={() => void run()}>
        {running ? '测试中…' : '开始测试'}
      </button>
    </Modal>
  );
}
