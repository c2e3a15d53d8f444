import { test as base, expect } from '@playwright/test';

export { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/**
 * Category and product pages arrive server-rendered and readable, and the app takes over a moment later
 * (it sets <html data-app="ready"> once mounted). Its buttons only work from then on, so every navigation
 * here waits for the app, as a person would wait for the page to respond. Tests without JavaScript don't.
 */
export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const ready = () => page.waitForSelector('html[data-app="ready"]', { state: 'attached' });
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args) => {
        const res = await goto(...args);
        await ready();
        return res;
      };
      page.reload = async (...args) => {
        const res = await reload(...args);
        await ready();
        return res;
      };
    }
    // Every page runs under the site's Content-Security-Policy (packages/service-kit/src/security-headers.ts): anything
    // it blocks (an inline script or handler, a resource from elsewhere) is a defect, reported here as a console line.
    await page.addInitScript(
      `document.addEventListener('securitypolicyviolation', function (e) {` +
        `console.error('CSP violation: ' + e.effectiveDirective + ' blocked ' + (e.blockedURI || '(inline)') +` +
        `(e.sourceFile ? ' at ' + e.sourceFile + ':' + e.lineNumber : '') + ' ' + (e.sample || ''));` +
        `});`,
    );
    // A server-rendered page that React cannot hydrate as it is gets drawn again (main.tsx logs it): a defect.
    const hydrationErrors: string[] = [];
    const policyErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Hydration|Minified React error #4(18|19|21|23|25)/.test(m.text())) hydrationErrors.push(`${page.url()}: ${m.text()}`);
      // Ours above, Chromium's own ("Refused to …"), and a Permissions-Policy it does not understand.
      if (/CSP violation|Content Security Policy|Permissions-Policy/i.test(m.text())) policyErrors.push(`${page.url()}: ${m.text()}`);
    });
    await use(page);
    expect(hydrationErrors, 'hydration errors').toEqual([]);
    expect(policyErrors, 'Content-Security-Policy violations and Permissions-Policy errors').toEqual([]);
  },
});
