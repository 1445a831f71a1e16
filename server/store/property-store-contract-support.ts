/** Helpers and the shared state of the PropertyStore contract suites (see property-store.contract.ts). */
import { PipeworkError } from '../../shared/errors';
import type { ChildrenPage, PropertyStore } from '../../shared/property';

/** What each part of the contract suite works with; fresh for every test. */
export interface ContractContext {
  readonly store: PropertyStore;
  /** The store's "now" in epoch milliseconds; tests move it forward. */
  now: number;
  /** Creates properties with the value `v:<key>`. */
  seed(...keys: string[]): Promise<void>;
}

/** The error code a promise rejects with (undefined when it resolves). */
export async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof PipeworkError ? error.code : `not a PipeworkError: ${String(error)}`;
  }
}

export async function collect(source: AsyncIterable<Uint8Array>): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of source) out.push(...chunk);
  return out;
}

export async function* pieces(...parts: number[][]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield new Uint8Array(part);
}

/**
 * Every page of a tree level, asking `pageAfter` for the page after each `next` until it is null; checks on the
 * way that no page is longer than `limit` and that a page with a `next` is full and ends with it.
 */
export async function allChildrenPages(
  pageAfter: (after: string | undefined) => Promise<ChildrenPage>,
  limit: number,
): Promise<string[][]> {
  const pages: string[][] = [];
  let after: string | undefined;
  for (;;) {
    const page = await pageAfter(after);
    if (page.children.length > limit)
      throw new Error(`A page of ${page.children.length} past the limit ${limit}.`);
    pages.push(page.children);
    if (page.next === null) return pages;
    if (page.children.length !== limit || page.next !== page.children.at(-1)) {
      throw new Error(`A page with a next must be full and end with it: ${JSON.stringify(page)}`);
    }
    after = page.next;
  }
}
