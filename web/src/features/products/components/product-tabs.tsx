import type { Product } from '@forgeline/contracts/products';
import { Star } from 'lucide-react';
import { Tabs } from 'radix-ui';

const trigger =
  'h-12 flex-1 border-b-2 border-transparent px-2 text-xs font-bold sm:px-4 sm:text-sm uppercase tracking-wider text-steel hover:text-ink data-[state=active]:border-safety data-[state=active]:text-ink sm:flex-none';

/** Description / Specs / Reviews: fixed marketing text (spec section 2), with the product's own table when it has one. */
export function ProductTabs({ product }: { product: Product }) {
  const specs = Object.entries(product.specifications ?? {});
  if (product.weight) specs.push(['Weight', product.weight]);
  if (product.dimensions) specs.push(['Dimensions', product.dimensions]);
  return (
    <Tabs.Root defaultValue="description" className="rounded-lg border border-zinc-200 bg-white">
      <Tabs.List aria-label="Product information" className="flex border-b border-zinc-200 px-2">
        <Tabs.Trigger value="description" className={trigger}>
          Description
        </Tabs.Trigger>
        <Tabs.Trigger value="specs" className={trigger}>
          Specs
        </Tabs.Trigger>
        <Tabs.Trigger value="reviews" className={trigger}>
          Reviews
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="description" className="space-y-3 p-4 leading-relaxed text-steel sm:p-6">
        <p>
          Every part we ship is matched to your machine by part number and checked before dispatch. We supply OEM, genuine and
          premium aftermarket parts built to the original specification for fit, finish and service life.
        </p>
        <p>
          Not sure this is the right part? Send us your machine model and serial number and our specialists will confirm fitment and
          cross-references before you order.
        </p>
      </Tabs.Content>
      <Tabs.Content value="specs" className="p-4 text-steel sm:p-6">
        <p className="leading-relaxed">
          Manufactured to OEM tolerances and inspected for dimensions, material and finish. Full technical data, drawings and
          cross-reference numbers are available on request with your quote.
        </p>
        {specs.length ? (
          <table className="mt-5 w-full text-left text-sm">
            <caption className="sr-only">Specifications</caption>
            <tbody>
              {specs.map(([k, v]) => (
                <tr key={k} className="border-b border-zinc-100 last:border-b-0">
                  <th scope="row" className="w-2/5 py-2 pr-4 font-semibold text-ink">
                    {k}
                  </th>
                  <td className="py-2">{v}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </Tabs.Content>
      <Tabs.Content value="reviews" className="p-4 sm:p-6">
        <div className="flex items-center gap-3">
          <span className="font-display text-4xl font-extrabold text-ink">99.5%</span>
          <div>
            <div className="flex gap-0.5" role="img" aria-label="5 out of 5 stars">
              {Array.from({ length: 5 }, (_, i) => (
                <Star key={i} className="size-4 fill-safety stroke-safety-deep" aria-hidden="true" />
              ))}
            </div>
            <p className="text-sm text-steel">positive feedback from verified buyers</p>
          </div>
        </div>
        <dl className="mt-6 grid gap-4 sm:grid-cols-3">
          {[
            ['Product quality', '9.8/10'],
            ['Delivery', '9.6/10'],
            ['Customer service', '9.9/10'],
          ].map(([label, score]) => (
            <div key={label} className="rounded-md bg-paper p-4">
              <dt className="text-xs font-bold uppercase tracking-wider text-steel">{label}</dt>
              <dd className="mt-1 font-display text-2xl font-extrabold text-ink">{score}</dd>
            </div>
          ))}
        </dl>
      </Tabs.Content>
    </Tabs.Root>
  );
}
