import { describe, expect, it } from 'vitest';
import { mailSealKey, openMail, sealMail } from './mail-seal.ts';

const key = mailSealKey('unit-test-secret-0123456789');
const mail = { to: 'admin@example.com', subject: 'Your code', text: 'Your Forgeline Parts admin sign-in code is 482913\n', messageId: '<otp-1@forgeline.parts>' };

describe('sealed outbox mails', () => {
  it('hold nothing readable: no code, address or text, and a fresh nonce each time', () => {
    const a = sealMail(key, 'm1', mail);
    const b = sealMail(key, 'm1', mail);
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/);
    expect(a).not.toBe(b);
    for (const clear of ['482913', 'admin@example.com', 'sign-in code', 'otp-1']) expect(a).not.toContain(clear);
    expect(openMail(key, 'm1', a)).toEqual(mail);
    expect(openMail(key, 'm1', b)).toEqual(mail);
  });

  it('open only with the same OTP_SECRET, for the same mail id, unaltered', () => {
    const sealed = sealMail(key, 'm1', mail);
    expect(() => openMail(mailSealKey('another-secret-0123456789'), 'm1', sealed)).toThrow();
    expect(() => openMail(key, 'm2', sealed)).toThrow();
    const [v, nonce, body] = sealed.split('.');
    const flipped = `${body!.slice(0, 5)}${body![5] === 'A' ? 'B' : 'A'}${body!.slice(6)}`;
    expect(() => openMail(key, 'm1', `${v}.${nonce}.${flipped}`)).toThrow();
    expect(() => openMail(key, 'm1', JSON.stringify(mail))).toThrow(/not a sealed mail/);
  });

  it('use a key of its own, not the codes\' HMAC key itself', () => {
    expect(key).toHaveLength(32);
    expect(key.equals(Buffer.from('unit-test-secret-0123456789'))).toBe(false);
  });
});
