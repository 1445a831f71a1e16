/** OAuth clients allowed at the token endpoint: public ones (`workbench`, `cli`) and confidential ones with a secret. */
import type { SqliteDatabase } from '../db';
import type { PasswordHasher } from './password-hasher';

interface ClientRow {
  client_id: string;
  public: number;
  secret_hash: string | null;
}

export class ClientRegistry {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Registers (or replaces) a client; with a secret it is confidential. */
  async register(clientId: string, secret?: string): Promise<void> {
    const secretHash = secret ? await this.hasher.hash(secret) : null;
    this.db
      .prepare(
        `INSERT INTO iam_client (client_id, public, secret_hash, created) VALUES (?, ?, ?, ?)
         ON CONFLICT (client_id) DO UPDATE SET public = excluded.public, secret_hash = excluded.secret_hash`,
      )
      .run(clientId, secret ? 0 : 1, secretHash, Date.now());
  }

  /** Whether the client exists and, when confidential, the secret matches. */
  async authenticate(clientId: string, secret: string | undefined): Promise<boolean> {
    const row = this.db
      .prepare<[string], ClientRow>('SELECT * FROM iam_client WHERE client_id = ?')
      .get(clientId);
    if (!row) return false;
    if (row.public) return true;
    if (!secret || !row.secret_hash) return false;
    return this.hasher.verify(row.secret_hash, secret);
  }

  list(): { clientId: string; publicClient: boolean }[] {
    return this.db
      .prepare<[], ClientRow>('SELECT * FROM iam_client ORDER BY client_id')
      .all()
      .map((r) => ({ clientId: r.client_id, publicClient: r.public === 1 }));
  }
}
