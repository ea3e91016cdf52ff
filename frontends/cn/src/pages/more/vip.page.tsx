import { useState } from 'react';
import type { Schema } from '../../api/face-a.types.js';
import { Modal } from '../../modals/modal.js';
import { modalHidden, modalShown } from '../../store/app.slice.js';
import { useAppDispatch, useAppSelector } from '../../store/hooks.js';
import { selectIsLoggedIn } from '../../store/user.slice.js';
import { useVipInfoQuery, useVipOrderAddMutation, useVipPlansQuery } from './more.api.js';

type Plan = Schema<'VipPlan'>;
const INTERVAL: Record<Plan['interval'], string> = { monthly: '每月', yearly: '每年', unknown: '' };

/** The pay modal: the chosen plan, then billing's checkout page (sandbox in development), back to /vip. */
function PayModal({ plan }: { plan: Plan | null }) {
  const [order, ordering] = useVipOrderAddMutation();
  const pay = async () => {
    if (!plan) return;
    const answer = await order({ plan_id: plan.id });
    if (answer.data?.checkout_url) window.location.assign(answer.data.checkout_url);
  };
  return (
    <Modal name="pay" title="开通 VIP">
      {plan && (
        <>
          <p>
            {plan.name}：{plan.price} {plan.currency}
            {INTERVAL[plan.interval]}
          </p>
          <p className="muted">{plan.description}</p>
          <button type="button" disabled={ordering.isLoading} onClick={() => void pay()}>
            前往支付
          </button>
        </>
      )}
    </Modal>
  );
}

/** /vip: the VIP plans, the visitor's membership, and buying one through the pay modal. */
export function VipPage() {
  const dispatch = useAppDispatch();
  const loggedIn = useAppSelector(selectIsLoggedIn);
  const plans = useVipPlansQuery();
  const info = useVipInfoQuery(undefined, { skip: !loggedIn });
  const [chosen, setChosen] = useState<Plan | null>(null);

  const buy = (plan: Plan) => {
    setChosen(plan);
    if (!loggedIn) {
      dispatch(modalShown('login'));
      return;
    }
    dispatch(modalHidden('login'));
    dispatch(modalShown('pay'));
  };

  return (
    <section className="page">
      <h1>VIP 会员</h1>
      <p className="muted">VIP 会员可批量查询 100,000 行、生成更多报告，并获得优先支持。</p>
      {info.data && (
        <p className="card" role="status">
          {info.data.is_vip
            ? `您是 VIP 会员，有效期至 ${info.data.expires_at ? new Date(info.data.expires_at).toLocaleDateString('zh-CN') : '—'}`
            : '您还不是 VIP 会员'}
        </p>
      )}
      <ul className="tool-grid plan-grid">
        {(plans.data?.plans ?? []).map((plan) => (
          <li key={plan.id}>
            <h2>{plan.name}</h2>
            <p className="price">
              {plan.price} {plan.currency}
              <span className="muted">{INTERVAL[plan.interval]}</span>
            </p>
            <p>{plan.description}</p>
            <button type="button" onClick={() => buy(plan)}>
              {info.data?.plan_id === plan.id ? '续费' : '开通'}
            </button>
          </li>
        ))}
      </ul>
      <PayModal plan={chosen} />
    </section>
  );
}
