import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { MailMessage } from '@forgeline/mailer/mailer';

/**
 * Auth's mails wait in the outbox sealed: AES-256-GCM under a key derived from OTP_SECRET (HKDF-SHA256), a fresh
 * 96-bit nonce per mail, the mail's id as associated data (a sealed body moved to another row does not open).
 * What is stored is `v1.<nonce>.<ciphertext and tag>` (base64url): no code, address or text in a readable form.
 * Whoever holds OTP_SECRET and the database could also try the million codes against their HMACs, so the key
 * adds no new secret to guard.
 */

const VERSION = 'v1';

/** The outbox's key: separate from the codes' HMAC key, though both come from OTP_SECRET. */
export function mailSealKey(otpSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', otpSecret, Buffer.alloc(0), 'forgeline-auth-outbox-v1', 32));
}

const aad = (id: string) => Buffer.from(`forgeline-auth-mail:${VERSION}:${id}`);

export function sealMail(key: Buffer, id: string, message: MailMessage): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad(id));
  const body = Buffer.concat([cipher.update(JSON.stringify(message), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
}

/** The mail a `sealMail` made for this id; throws when it was sealed under another key, for another id, or altered. */
export function openMail(key: Buffer, id: string, sealed: string): MailMessage {
  const [version, nonce, body] = sealed.split('.');
  if (version !== VERSION || !nonce || !body) throw new Error('not a sealed mail');
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.length < 16) throw new Error('not a sealed mail');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAAD(aad(id));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  const text = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
  return JSON.parse(text) as MailMessage;
}
