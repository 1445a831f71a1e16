/** The Authenticator of the HTTP layer: Basic, Bearer, Refresh and Apitoken credentials, then an optional RunAs. */
import type { Principal } from '../../shared/auth';
import type { Authenticator, CredentialsInput } from './authenticator';
import { parseAuthorization } from './authorization-header';

/** What the authenticator needs from IAM (IamService provides it). */
export interface IdentityProvider {
  verifyPassword(username: string, password: string, ip?: string): Promise<Principal>;
  principalFromAccessToken(token: string): Promise<Principal>;
  principalFromRefreshToken(token: string): Promise<Principal>;
  principalFromApiToken(token: string): Promise<Principal>;
  runAs(caller: Principal, username: string): Promise<Principal>;
}

export function createIamAuthenticator(identity: IdentityProvider): Authenticator {
  return {
    async authenticate(input: CredentialsInput): Promise<Principal> {
      const { primary, runAs } = parseAuthorization(input.authorization);
      let principal: Principal;
      switch (primary.scheme) {
        case 'basic':
          principal = await identity.verifyPassword(primary.username, primary.password, input.ip);
          break;
        case 'bearer':
          principal = await identity.principalFromAccessToken(primary.token);
          break;
        case 'refresh':
          principal = await identity.principalFromRefreshToken(primary.token);
          break;
        case 'apitoken':
          principal = await identity.principalFromApiToken(primary.token);
          break;
      }
      return runAs === undefined ? principal : identity.runAs(principal, runAs);
    },
  };
}
