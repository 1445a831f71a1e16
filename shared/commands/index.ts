export {
  defineCommand,
  type CommandCatalog,
  type CommandContext,
  type CommandDefinition,
  type CommandHandler,
  type LogLevel,
  type PipelineScope,
} from './command-definition';
export {
  COMMAND_NAME_PATTERN,
  isReadOnly,
  permissionOf,
  type CommandEffect,
  type CommandAudience,
  COMMAND_AUDIENCES,
  type CommandContract,
  type CommandExample,
  type CommandStreaming,
  type ControlFlowRole,
  type ValueKind,
} from './contract';
export { COMMON_PARAMETERS, COMMON_PARAMETER_NAMES } from './common-parameters';
export type { JsonSchema, JsonSchemaType } from './json-schema';
export { CommandRegistry } from './registry';
export { validateParameters, parameterObjectSchema } from './validate-parameters';
export { generatePipelineSchema, PIPEWORK_KEYWORD, type PipeworkSchemaExtension } from './schema-v7';
export { commandLookupFromSchema, type SchemaCommandLookup } from './schema-contracts';
export { coreCommands } from './core';
export { checkExpression } from './core/schema';
