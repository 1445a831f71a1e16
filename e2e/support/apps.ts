/** Shared steps of the forms and lists specs: publish a corpus app through the API, as `pi publish` stores it. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { readFolder } from '../../server/cli/publish';
import { callCommand } from './sign-in';

export const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/app-examples');
export const corpusPresent = existsSync(CORPUS);

/** Stores every file of the corpus app under global/app/<app>, with the keys and types `pi publish` gives them. */
export async function publishCorpusApp(
  request: APIRequestContext,
  token: string,
  app: string,
): Promise<void> {
  for (const property of readFolder(join(CORPUS, 'global/app', app)))
    await callCommand(
      request,
      token,
      'property.schema.put',
      { key: property.key, type: property.type, evalValue: 'false' },
      property.value,
    );
}
