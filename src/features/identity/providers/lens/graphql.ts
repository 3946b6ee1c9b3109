/**
 * The Lens v3 API's GraphQL documents this provider sends, and the answer shapes it reads. Fields after
 * the `Account` fragment of `@lens-protocol/client` (address, owner, createdAt, username, metadata) and
 * `accountsAvailable`'s `AccountOwned | AccountManaged` items.
 */
const ACCOUNT_FIELDS = `
  address
  owner
  createdAt
  username { value localName namespace timestamp }
  metadata { name bio picture }
`;

export const ACCOUNT_QUERY = `query CipgateLensAccount($request: AccountRequest!) {
  account(request: $request) {${ACCOUNT_FIELDS}}
}`;

/** Reverse: the address as a Lens Account, and the accounts it owns (managed ones are not its names). */
export const REVERSE_QUERY = `query CipgateLensReverse($account: AccountRequest!, $available: AccountsAvailableRequest!) {
  account(request: $account) {${ACCOUNT_FIELDS}}
  accountsAvailable(request: $available) {
    items {
      __typename
      ... on AccountOwned { account {${ACCOUNT_FIELDS}} }
    }
  }
}`;

export interface LensAccount {
  /** The Lens Account (a smart account on Lens Chain): where a name sends funds. */
  address: string;
  /** The address that owns the account. */
  owner: string;
  createdAt?: string | null;
  username?: { value: string; localName: string; namespace?: string; timestamp?: string | null } | null;
  metadata?: { name?: string | null; bio?: string | null; picture?: string | null } | null;
}

export interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: { message?: string }[];
}

export interface AccountAnswer {
  account: LensAccount | null;
}

export interface ReverseAnswer {
  account: LensAccount | null;
  accountsAvailable: { items: { __typename: string; account?: LensAccount }[] } | null;
}
