/**
 * Secure delivery: files and a message for recipients outside the server, each of whom gets a mail with a
 * link to the public download page (`server/http/delivery-page-route.ts`). Only the sender (or an admin)
 * sees and changes a delivery; recipients see what was sent to their address (`delivery.inbox.*`). What the
 * privacy levels mean here is in docs/delivery.md.
 */
import { randomUUID } from 'node:crypto';
import { openDelivery, endpointUrl } from '../../shared/api';
import { isAdmin, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { Logger } from '../logging/logger';
import type { MailService } from '../mail';
import type { DeliveryConfig } from './delivery-config';
import { downloadedMail, linkMail, passwordMail } from './delivery-mails';
import type { Delivery, PrivacyLevel } from './delivery-records';
import {
  TOKEN_SHAPE,
  newContentKey,
  newPassword,
  newToken,
  open,
  seal,
  secretHash,
  secretMatches,
  unwrapContentKey,
  wrapContentKey,
} from './delivery-secrets';
import type { DeliveryFields, DeliveryStore, NewAttachment, TokenHolder } from './delivery-store';

export interface DeliveryInput {
  subject?: string;
  message?: string;
  privacyLevel?: PrivacyLevel;
  recipients?: string[];
  deleteAfter?: number;
  notifySender?: boolean;
  attachments?: NewAttachment[];
}

/** A link opened on the download page: the delivery and the recipient whose token it is. */
export interface OpenedLink {
  delivery: Delivery;
  holder: TokenHolder;
}

const LIST_LIMIT = 1000;

const notFound = (): PipeworkError => new PipeworkError('NOT_FOUND', 'No such delivery.');

export class DeliveryService {
  constructor(
    private readonly store: DeliveryStore,
    private readonly mail: MailService,
    readonly config: DeliveryConfig,
    /** The server's public base URL, for the links. */
    private readonly baseUrl: () => string,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  private checkBytes(attachments: NewAttachment[], already = 0): void {
    const total = attachments.reduce((sum, a) => sum + a.content.byteLength, already);
    if (total > this.config.maxBytes)
      throw new PipeworkError(
        'PAYLOAD_TOO_LARGE',
        `A delivery holds at most ${this.config.maxBytes} bytes of attachments.`,
      );
  }

  private checkRecipients(recipients: string[]): void {
    if (recipients.length > this.config.maxRecipients)
      throw new PipeworkError(
        'PARAM_INVALID',
        `A delivery takes at most ${this.config.maxRecipients} recipients.`,
        {
          parameter: 'recipients',
        },
      );
  }

  async create(principal: Principal, input: DeliveryInput): Promise<Delivery> {
    const attachments = input.attachments ?? [];
    const recipients = input.recipients ?? [];
    this.checkBytes(attachments);
    this.checkRecipients(recipients);
    const uuid = randomUUID();
    const fields: DeliveryFields = {
      subject: input.subject ?? `A secure delivery from ${principal.displayName ?? principal.username}`,
      message: input.message ?? '',
      privacyLevel: input.privacyLevel ?? 1,
      notifySender: input.notifySender ?? true,
      deleteAfter: input.deleteAfter ?? 0,
    };
    await this.store.insert(
      {
        uuid,
        senderUuid: principal.uuid,
        senderName: principal.displayName ?? principal.username,
        senderEmail: principal.email ?? null,
      },
      fields,
      recipients.map((email) => ({ email, locale: null })),
      attachments,
    );
    return (await this.store.get(uuid))!;
  }

  /** The delivery if the principal sent it (or is an admin); NOT_FOUND otherwise, as for a missing one. */
  async owned(principal: Principal, uuid: unknown): Promise<Delivery> {
    if (typeof uuid !== 'string' || uuid === '') throw notFound();
    const delivery = await this.store.get(uuid);
    if (!delivery || (delivery.senderUuid !== principal.uuid && !isAdmin(principal))) throw notFound();
    return delivery;
  }

  async update(principal: Principal, uuid: unknown, input: DeliveryInput): Promise<Delivery> {
    const delivery = await this.owned(principal, uuid);
    const { recipients, attachments, ...fields } = input;
    const changesContent = Object.values(fields).some((v) => v !== undefined) || attachments !== undefined;
    if (delivery.status !== 'DRAFT' && changesContent)
      throw new PipeworkError(
        'CONFLICT',
        `Delivery ${delivery.uuid} is ${delivery.status}: only its recipients can change.`,
      );
    if (recipients) this.checkRecipients(recipients);
    if (attachments) this.checkBytes(attachments);
    await this.store.update(
      delivery.uuid,
      fields,
      recipients?.map((email) => ({ email, locale: null })),
      attachments,
    );
    return (await this.store.get(delivery.uuid))!;
  }

  async addRecipient(
    principal: Principal,
    uuid: unknown,
    email: string,
    locale: string | null,
  ): Promise<Delivery> {
    const delivery = await this.owned(principal, uuid);
    if (!delivery.recipients.some((r) => r.email === email))
      this.checkRecipients([...delivery.recipients.map((r) => r.email), email]);
    if (delivery.encrypted)
      throw new PipeworkError(
        'CONFLICT',
        `Delivery ${delivery.uuid} was sent encrypted: its content key exists only for the recipients it was sent to.`,
      );
    await this.store.addRecipient(delivery.uuid, { email, locale });
    return (await this.store.get(delivery.uuid))!;
  }

  async addAttachment(principal: Principal, uuid: unknown, attachment: NewAttachment): Promise<Delivery> {
    const delivery = await this.owned(principal, uuid);
    if (delivery.status !== 'DRAFT')
      throw new PipeworkError(
        'CONFLICT',
        `Delivery ${delivery.uuid} is ${delivery.status}: attachments are fixed.`,
      );
    this.checkBytes([attachment], await this.store.attachmentBytes(delivery.uuid));
    await this.store.addAttachment(delivery.uuid, attachment);
    return (await this.store.get(delivery.uuid))!;
  }

  async finalize(principal: Principal, uuid: unknown): Promise<Delivery> {
    const delivery = await this.owned(principal, uuid);
    if (delivery.status === 'DRAFT') await this.store.setStatus(delivery.uuid, 'FINALIZED');
    return (await this.store.get(delivery.uuid))!;
  }

  async delete(principal: Principal, uuid: unknown): Promise<void> {
    const delivery = await this.owned(principal, uuid);
    await this.store.delete(delivery.uuid);
  }

  async outbox(principal: Principal): Promise<Delivery[]> {
    return this.store.bySender(principal.uuid, LIST_LIMIT);
  }

  async inbox(principal: Principal, email?: string): Promise<Delivery[]> {
    const address = this.inboxAddress(principal, email);
    return address ? this.store.byRecipient(address, LIST_LIMIT) : [];
  }

  /** The caller's own address; another one only for admins. */
  inboxAddress(principal: Principal, email?: string): string | undefined {
    const own = principal.email?.toLowerCase();
    if (email === undefined || email.toLowerCase() === own) return own;
    if (!isAdmin(principal))
      throw new PipeworkError('FORBIDDEN', 'Only admins read the inbox of another address.', {
        parameter: 'recipientEmail',
      });
    return email.toLowerCase();
  }

  /**
   * Sends the links: finalizes a draft, then mails each chosen recipient (all by default) a new link (and from
   * level 2 a password); an earlier link of that recipient stops working. From level 3 the content is
   * encrypted at the first send, its key wrapped for each recipient; such a delivery is sent once.
   */
  async send(principal: Principal, uuid: unknown, only?: string[]): Promise<Delivery> {
    let delivery = await this.owned(principal, uuid);
    const targets = only?.length ? only : delivery.recipients.map((r) => r.email);
    const unknown = targets.filter((t) => !delivery.recipients.some((r) => r.email === t));
    if (unknown.length > 0)
      throw new PipeworkError('PARAM_INVALID', `Not a recipient of this delivery: ${unknown.join(', ')}.`, {
        parameter: 'recipients',
      });
    if (targets.length === 0)
      throw new PipeworkError('PARAM_INVALID', 'The delivery has no recipient to send to.', {
        parameter: 'recipients',
      });
    if (delivery.encrypted)
      throw new PipeworkError(
        'CONFLICT',
        `Delivery ${delivery.uuid} was sent encrypted once; its content key is not kept to send it again.`,
      );
    if (delivery.status === 'DRAFT') await this.store.setStatus(delivery.uuid, 'FINALIZED');
    const level = delivery.privacyLevel;
    const secrets = targets.map((email) => ({
      email,
      token: newToken(),
      password: level >= 2 ? newPassword() : null,
      wrappedKey: null as string | null,
    }));
    const plainMessage = delivery.message;
    if (level >= 3) {
      const key = newContentKey();
      for (const s of secrets)
        s.wrappedKey = wrapContentKey(key, { token: s.token, password: s.password! }, delivery.uuid, s.email);
      await this.store.encryptContent(delivery.uuid, (plain) => seal(key, plain), level === 4);
      key.fill(0);
    }
    delivery = (await this.store.get(delivery.uuid))!;
    for (const s of secrets) {
      const link = `${this.baseUrl().replace(/\/+$/, '')}${endpointUrl(openDelivery, { token: s.token })}`;
      await this.mail.send(linkMail(delivery, s.email, link, level === 4 ? null : plainMessage));
      if (s.password !== null) await this.mail.send(passwordMail(delivery, s.email, s.password));
      await this.store.recordSent(delivery.uuid, s.email, {
        tokenHash: secretHash(s.token),
        passwordHash: s.password === null ? null : secretHash(s.password),
        wrappedKey: s.wrappedKey,
      });
    }
    return (await this.store.get(delivery.uuid))!;
  }

  /** The delivery behind a download token; undefined for a malformed, unknown or expired one. */
  async openLink(token: string): Promise<OpenedLink | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const holder = await this.store.byToken(secretHash(token));
    if (!holder) return undefined;
    const delivery = await this.store.get(holder.deliveryUuid);
    if (!delivery || (delivery.deleteAfter > 0 && delivery.deleteAfter <= Date.now())) return undefined;
    return { delivery, holder };
  }

  passwordMatches(link: OpenedLink, password: string): boolean {
    return secretMatches(password, link.holder.passwordHash);
  }

  /** The message as the recipient reads it (level 4: decrypted with its secrets). */
  messageFor(link: OpenedLink, token: string, password: string): string {
    const { delivery } = link;
    if (!(delivery.encrypted && delivery.privacyLevel === 4)) return delivery.message;
    return open(this.contentKey(link, token, password), Buffer.from(delivery.message, 'base64')).toString(
      'utf8',
    );
  }

  private contentKey(link: OpenedLink, token: string, password: string): Buffer {
    if (!link.holder.wrappedKey) throw notFound();
    return unwrapContentKey(
      link.holder.wrappedKey,
      { token, password },
      link.delivery.uuid,
      link.holder.email,
    );
  }

  /**
   * An attachment's bytes for the recipient of the link (password already checked by the page), counted as
   * a download; the sender is told of a recipient's first download when the delivery asks for it.
   */
  async download(link: OpenedLink, position: number, token: string, password: string): Promise<Uint8Array> {
    const { delivery, holder } = link;
    const stored = await this.store.attachmentContent(delivery.uuid, position);
    if (!stored) throw notFound();
    const bytes = delivery.encrypted ? open(this.contentKey(link, token, password), stored) : stored;
    const before = await this.store.countDownload(delivery.uuid, holder.email);
    if (before === 0 && delivery.notifySender && delivery.senderEmail) {
      await this.mail
        .send(downloadedMail(delivery, delivery.senderEmail, holder.email))
        .catch((error: unknown) => this.logger?.warn({ err: error }, 'delivery download notice not sent'));
    }
    return bytes;
  }

  /** The cleanup job's part: deletes expired deliveries with their bytes. */
  async deleteExpired(now = Date.now()): Promise<number> {
    return this.store.deleteExpired(now);
  }
}
