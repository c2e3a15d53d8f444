import client from 'prom-client';
const c = new client.Counter({ name: 'x_total', help: 'x', labelNames: ['service', 'method', 'route', 'status_class'] });
const h = new client.Histogram({ name: 'y_seconds', help: 'y', labelNames: ['service', 'method', 'route'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] });
const N = 200_000;
for (let k = 0; k < 3; k++) {
  let t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    c.inc({ service: 'catalog', method: 'GET', route: '/api/products', status_class: '2xx' });
    h.observe({ service: 'catalog', method: 'GET', route: '/api/products' }, 0.01 * (i % 10));
  }
  console.log('labels obj', Number(process.hrtime.bigint() - t) / N, 'ns per request (inc+observe)');
  const cc = c.labels('catalog', 'GET', '/api/products', '2xx');
  const hh = h.labels('catalog', 'GET', '/api/products');
  t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    cc.inc();
    hh.observe(0.01 * (i % 10));
  }
  console.log('cached child', Number(process.hrtime.bigint() - t) / N, 'ns');
}
