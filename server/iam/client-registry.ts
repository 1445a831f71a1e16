/** OAuth clients allowed at the token endpoint: public ones (`workbench`, `cli`) and confidential ones with a secret. */
import type { SqlPort } from '../db/sql';
import type { PasswordHasher } from './password-hasher';

interface ClientRow {
  client_id: string;
  public: number;
  secret_hash: string | null;
}

export class ClientRegistry {
  constructor(
    private readonly sql: SqlPort,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Registers (or replaces) a client; with a secret it is confidential. */
  async register(clientId: string, secret?: string): Promise<void> {
    const secretHash = secret ? await this.hasher.hash(secret) : null;
    await this.sql.run(
      `INSERT INTO iam_client (client_id, public, secret_hash, created) VALUES ($1, $2, $3, $4)
       ON CONFLICT (client_id) DO UPDATE SET public = excluded.public, secret_hash = excluded.secret_hash`,
      [clientId, secret ? 0 : 1, secretHash, Date.now()],
    );
  }

  /** Whether the client exists and, when confidential, the secret matches. */
  async authenticate(clientId: string, secret: string | undefined): Promise<boolean> {
    const row = await this.sql.get<ClientRow>('SELECT * FROM iam_client WHERE client_id = $1', [clientId]);
    if (!row) return false;
    if (Number(row.public) === 1) return true;
    if (!secret || !row.secret_hash) return false;
    return this.hasher.verify(row.secret_hash, secret);
  }

  async list(): Promise<{ clientId: string; publicClient: boolean }[]> {
    const rows = await this.sql.all<ClientRow>('SELECT * FROM iam_client ORDER BY client_id');
    return rows.map((r) => ({ clientId: r.client_id, publicClient: Number(r.public) === 1 }));
  }
}
