import { expect, type Page } from '@playwright/test';
import { mailDir, mailsMentioning } from './dev-mailbox.ts';

/** The admin address the stack allows (ADMIN_EMAILS), prefilled on /admin. */
export const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? 'admin@forgeline-parts.example';
/** A second member of staff (global-setup adds them to ADMIN_EMAILS): the one whose address a guesser locks. */
export const SECOND_ADMIN_EMAIL = 'ops@forgeline-parts.example';

/** The code mailed for one code request, found by the request id in its Message-ID. */
export async function mailedCode(sessionId: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      () => {
        for (const text of mailsMentioning(`otp-${sessionId}@`)) code = /sign-in code is (\d{6})/.exec(text)?.[1];
        return code ?? null;
      },
      { message: `a code mailed for ${sessionId} in ${mailDir()}` },
    )
    .not.toBeNull();
  return code!;
}

/** Sign in on /admin as ADMIN_EMAIL with the code read from the dev mailbox; ends on the admin panel. */
export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto('/admin');
  await expect(page.getByLabel('Email')).toHaveValue(ADMIN_EMAIL);
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/admin/auth/send-otp'));
  await page.getByRole('button', { name: 'Send OTP' }).click();
  const { sessionId } = (await (await sent).json()) as { sessionId: string };
  await page.getByLabel('OTP code').fill(await mailedCode(sessionId));
  // Signed in once the panel shows its first tool and that tool's first list (each tab's code loads on demand).
  const firstList = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/products');
  await page.getByRole('button', { name: 'Verify OTP' }).click();
  await expect(page.getByRole('tab', { name: 'Product Upload' })).toBeVisible();
  await expect(page.getByPlaceholder('Search products by name, SKU or part number...')).toBeVisible();
  await firstList;
}
