/** Mail: sending with nodemailer, or the outbox when no SMTP server is set. */
export { addressList, headerText, type MailAddress } from './mail-addresses';
export { loadMailConfig, type MailConfig } from './mail-config';
export { MailService, type OutboxEntry, type SentMail, type SmtpAuth } from './mail-service';
