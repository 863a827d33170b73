// «Настройки» → «Цены и скидки» («#settings/pricing»): the discounts, the paid extras and the
// promo codes, which apply to every cabin's stays (docs/api.md «Pricing»). Each is a form of its
// own; PUT /admin/pricing takes the discounts and the extras together, so each of those two sends
// the other as the server holds it. None of them rebuilds the public pages: the booking card asks
// the server for each stay's price.
import type { Discount, Extra } from '../../../schema/pricing.ts';
import { call, client } from '../client.ts';
import { useLoad, Unloaded } from '../ui/useLoad.tsx';
import { discountPayload, discountValues, DiscountsForm } from './Discounts.tsx';
import { extraPayload, extraValues, ExtrasForm, type CabinName } from './Extras.tsx';
import { promoPayload, promoValues, PromoCodesForm, type PromoCode } from './PromoCodes.tsx';

type Pricing = { discounts: Discount[]; extras: Extra[] };

const loadAll = () =>
  Promise.all([
    call(client().admin.pricing.$get()),
    call(client().admin['promo-codes'].$get()),
    call(client().admin.cabins.$get()),
  ]).then(([pricing, promos, cabins]) => ({
    pricing: pricing as Pricing,
    codes: promos.codes as PromoCode[],
    cabins: cabins.map((c): CabinName => ({ id: c.id, name: c.name, active: c.active })),
  }));

const putPricing = async (body: {
  discounts: ReturnType<typeof discountPayload>;
  extras: ReturnType<typeof extraPayload>;
}) => (await call(client().admin.pricing.$put({ json: body }))) as Pricing;

export function PricingSettings() {
  const { state, reload, setData } = useLoad(loadAll);
  if (state.status !== 'loaded') return <Unloaded state={state} onRetry={() => void reload()} />;
  const { pricing, codes, cabins } = state.data;
  const setPricing = (next: Pricing) => setData((d) => ({ ...d, pricing: next }));

  return (
    <div className="pricing-settings">
      <p className="tab__lead">
        Скидки, услуги и промокоды действуют для всех домиков. Цены ночей (выходные, гости, сезоны, отдельные даты)
        задаются у каждого домика: в «Домиках» и в «Календаре».
      </p>
      <DiscountsForm
        saved={discountValues(pricing.discounts)}
        save={async (v) => {
          const res = await putPricing({
            discounts: discountPayload(v),
            extras: extraPayload(extraValues(pricing.extras)),
          });
          setPricing(res);
        }}
      />
      <ExtrasForm
        saved={extraValues(pricing.extras)}
        cabins={cabins}
        save={async (v) => {
          const res = await putPricing({ discounts: pricing.discounts, extras: extraPayload(v) });
          setPricing(res);
        }}
      />
      <PromoCodesForm
        saved={promoValues(codes)}
        save={async (v) => {
          const res = await call(client().admin['promo-codes'].$put({ json: { codes: promoPayload(v) } }));
          setData((d) => ({ ...d, codes: res.codes as PromoCode[] }));
        }}
      />
    </div>
  );
}
