/**
 * Property history as commands use it (docs/history.md): versions listed, read and diffed with the caller's
 * read right on the key, and restored through `PropertyService` (write right, object schema, events), so a
 * restore is itself a new version.
 */
import { structuredPatch, formatPatch } from 'diff';
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import {
  normalizePropertyKey,
  type Property,
  type PropertyVersion,
  type PropertyVersionSummary,
} from '../../shared/property';
import type { PropertyService } from './property-service';

/** How long a diff may take before it gives up (a diff of huge, very different texts is quadratic). */
const DIFF_MILLIS = 500;

/** One side of a diff: a version, or the property as it is now. */
export interface DiffSide {
  label: string;
  /** The version's id; null for the property as it is now. */
  id: number | null;
  value: string | null;
  type: string | null;
}

export interface VersionDiff {
  key: string;
  from: DiffSide;
  to: DiffSide;
  /** The unified diff of the two values (empty when they are equal). */
  patch: string;
  /** Whether value, type, time to live or default value differ. */
  changed: { value: boolean; type: boolean };
}

/** The result of a restore: the property as it now is and the version it came from. */
export interface RestoreResult {
  restoredFrom: number;
  /** `update` when the property existed, `create` when the restore brought a deleted key back. */
  result: 'update' | 'create';
  property: Property;
}

function versionNotFound(key: string, id: number): PipeworkError {
  return new PipeworkError(
    'NOT_FOUND',
    `Property '${key}' has no kept version with id ${id} (the id field of property.history.list; its version field is the property's own version number).`,
    {
      key,
      parameter: 'version',
    },
  );
}

export class PropertyHistoryService {
  constructor(private readonly properties: PropertyService) {}

  private readable(principal: Principal | null, rawKey: unknown): string {
    const key = normalizePropertyKey(rawKey);
    this.properties.access.assertRead(principal, key);
    return key;
  }

  /** Versions of the key, newest first (at most `limit`, 100 by default; `before` pages back). */
  async list(
    principal: Principal | null,
    rawKey: unknown,
    page: { limit?: number; before?: number } = {},
  ): Promise<PropertyVersionSummary[]> {
    const key = this.readable(principal, rawKey);
    const limit = Math.min(page.limit ?? 100, 1000);
    return this.properties.store.history.list(key, { limit, before: page.before });
  }

  /** One version with its value; NOT_FOUND when the key has no such kept version. */
  async get(principal: Principal | null, rawKey: unknown, id: number): Promise<PropertyVersion> {
    const key = this.readable(principal, rawKey);
    const version = await this.properties.store.history.get(key, id);
    if (!version) throw versionNotFound(key, id);
    return version;
  }

  /** The diff from version `fromId` to version `toId` (default: the property as it is now). */
  async diff(
    principal: Principal | null,
    rawKey: unknown,
    fromId: number,
    toId?: number,
  ): Promise<VersionDiff> {
    const key = this.readable(principal, rawKey);
    const from = sideOf(await this.get(principal, key, fromId));
    let to: DiffSide;
    if (toId !== undefined) {
      to = sideOf(await this.get(principal, key, toId));
    } else {
      const current = await this.properties.store.get(key);
      to = { label: 'current', id: null, value: current?.value ?? null, type: current?.type ?? null };
    }
    const patch = structuredPatch(
      `${key}@${from.label}`,
      `${key}@${to.label}`,
      from.value ?? '',
      to.value ?? '',
      undefined,
      undefined,
      { context: 3, timeout: DIFF_MILLIS },
    );
    if (!patch) {
      throw new PipeworkError(
        'LIMIT_EXCEEDED',
        `The two versions of '${key}' differ too much to diff within ${DIFF_MILLIS} ms; read them with property.history.get.`,
        { key },
      );
    }
    return {
      key,
      from,
      to,
      patch: patch.hunks.length === 0 ? '' : formatPatch(patch),
      changed: { value: from.value !== to.value, type: from.type !== to.type },
    };
  }

  /**
   * Makes a kept version current again: value and type over the property as it is (a new version; `expected`
   * is the compare-and-swap version), or, when the key no longer exists, a new property with the version's
   * value, type, time to live and default value. A version that records a deletion or a move away holds no
   * value: PARAM_INVALID.
   */
  async restore(
    principal: Principal | null,
    rawKey: unknown,
    id: number,
    expected?: number,
  ): Promise<RestoreResult> {
    const key = this.readable(principal, rawKey);
    await this.properties.assertWritable(principal, key);
    const version = await this.get(principal, key, id);
    if (version.kind === 'deleted' || version.kind === 'moved-out') {
      const what = version.kind === 'deleted' ? 'deletion' : `move to '${version.otherKey}'`;
      throw new PipeworkError(
        'PARAM_INVALID',
        `Version ${id} of '${key}' records its ${what} and holds no value; restore a version before it.`,
        { key, parameter: 'version' },
      );
    }
    // A sealed version is written as its plain value, sealed again by the write (an encrypted property stays so).
    const plain = this.properties.plainOf(key, version.value);
    const current = await this.properties.store.get(key);
    if (current) {
      const property = await this.properties.put(principal, {
        key,
        value: plain.value,
        type: version.type,
        version: expected,
      });
      return { restoredFrom: id, result: 'update', property };
    }
    if (expected !== undefined) {
      throw new PipeworkError(
        'CONFLICT',
        `Property '${key}' no longer exists; it is not at version ${expected}.`,
        {
          key,
        },
      );
    }
    const { property } = await this.properties.create(
      principal,
      {
        key,
        value: plain.value,
        type: version.type,
        timeToLive: version.timeToLive,
        defaultValue: version.defaultValue ?? undefined,
        encrypted: plain.encrypted,
      },
      'error',
    );
    return { restoredFrom: id, result: 'create', property };
  }
}

function sideOf(version: PropertyVersion): DiffSide {
  return { label: `v${version.id}`, id: version.id, value: version.value, type: version.type };
}
