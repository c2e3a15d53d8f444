import { describe, expect, it } from 'vitest';
import { auditAction } from './audit-sink.ts';

describe('auditAction', () => {
  it('names staff calls by what they did, writes apart from reads', () => {
    expect(auditAction('DELETE', '/api/admin/sign-in-locks/ops%40example.com')).toBe('sign-in.unlock');
    expect(auditAction('GET', '/api/admin/sign-in-locks')).toBe('sign-in-lock.list');
    expect(auditAction('DELETE', '/api/admin/api-keys/k1')).toBe('api-key.revoke');
    expect(auditAction('POST', '/api/admin/api-keys')).toBe('api-key.create');
    expect(auditAction('PATCH', '/api/admin/products/p1')).toBe('product.update');
    expect(auditAction('GET', '/api/admin/catalog/export.csv')).toBe('catalog.export');
    expect(auditAction('POST', '/api/admin/quotes/q1/reply')).toBe('quote.reply');
    expect(auditAction('POST', '/api/admin/quotes/q1/revoke-links')).toBe('quote.revoke-links');
    expect(auditAction('PATCH', '/api/admin/orders/o1')).toBe('order.update');
    expect(auditAction('GET', '/api/admin/orders')).toBe('order.read');
    expect(auditAction('GET', '/api/admin/orders/export.csv')).toBe('order.export');
    expect(auditAction('GET', '/api/admin/orders/o1/po-document')).toBe('order.po-document');
    expect(auditAction('POST', '/api/admin/webhooks')).toBe('webhook.add');
    expect(auditAction('DELETE', '/api/admin/webhooks/w1')).toBe('webhook.remove');
    // The staff's search rules (#36): every change is in the log by what it did.
    expect(auditAction('POST', '/api/admin/search/aliases')).toBe('search.alias');
    expect(auditAction('POST', '/api/admin/search/aliases.csv')).toBe('search.alias');
    expect(auditAction('DELETE', '/api/admin/search/aliases/a1')).toBe('search.alias-remove');
    expect(auditAction('POST', '/api/admin/search/synonyms')).toBe('search.synonym');
    expect(auditAction('DELETE', '/api/admin/search/synonyms/s1')).toBe('search.synonym-remove');
    expect(auditAction('PUT', '/api/admin/search/queries/status')).toBe('search.query-status');
    expect(auditAction('GET', '/api/admin/search/insights')).toBe('search.insights');
    expect(auditAction('GET', '/api/admin/search/aliases.csv')).toBe('search.aliases');
    // Parts diagrams (#38): each save, import, export and drawing, beside the assembly's own history.
    expect(auditAction('POST', '/api/admin/assemblies')).toBe('diagram.create');
    expect(auditAction('PUT', '/api/admin/assemblies/a1')).toBe('diagram.update');
    expect(auditAction('DELETE', '/api/admin/assemblies/a1')).toBe('diagram.delete');
    expect(auditAction('GET', '/api/admin/assemblies/a1/history')).toBe('diagram.read');
    expect(auditAction('POST', '/api/admin/assemblies/import')).toBe('diagram.import');
    expect(auditAction('GET', '/api/admin/assemblies/export.csv')).toBe('diagram.export');
    expect(auditAction('POST', '/api/admin/diagrams/a1')).toBe('diagram.upload');
  });

  it('names an unknown call by its method and first segments', () => {
    expect(auditAction('POST', '/api/admin/something/new/deep')).toBe('post /api/admin/something');
  });
});
