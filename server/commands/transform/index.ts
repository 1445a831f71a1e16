/** Conversions between formats and PEL templates. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { csvToJson, jsonToCsv } from './csv-json';
import { transform } from './template';
import { jsonToXml, xmlToJson } from './xml-json';
import { jsonToYaml, yamlToJson } from './yaml-json';

export const transformCommands: CommandDefinition<ServerServices>[] = [
  transform,
  csvToJson,
  jsonToCsv,
  xmlToJson,
  jsonToXml,
  yamlToJson,
  jsonToYaml,
] as CommandDefinition<ServerServices>[];
