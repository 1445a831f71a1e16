/** Conversions between formats, PEL templates and FreeMarker templates. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { csvToJson, jsonToCsv } from './csv-json';
import { transform } from './template';
import { transformFtl } from './transform-ftl';
import { jsonToXml, xmlToJson } from './xml-json';
import { jsonToYaml, yamlToJson } from './yaml-json';

export const transformCommands: CommandDefinition<ServerServices>[] = [
  transform,
  transformFtl,
  csvToJson,
  jsonToCsv,
  xmlToJson,
  jsonToXml,
  yamlToJson,
  jsonToYaml,
] as CommandDefinition<ServerServices>[];
