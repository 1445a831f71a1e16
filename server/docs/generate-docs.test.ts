import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { generatedDocs } from './generate-docs';

it.each(generatedDocs().map((d) => [d.path.split('/').slice(-2).join('/'), d]))(
  '%s matches the code (run `npm run docs`)',
  (_name, doc) => {
    expect(readFileSync(doc.path, 'utf8')).toBe(doc.content);
  },
);
