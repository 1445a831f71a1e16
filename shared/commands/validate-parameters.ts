/** Checks a command's parameters against its contract with ajv, and names the parameter at fault. */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { PipeworkError } from '../errors';
import { COMMON_PARAMETERS } from './common-parameters';
import type { CommandContract } from './contract';
import type { JsonSchema } from './json-schema';

const ajv = new Ajv({ allErrors: false, coerceTypes: true, useDefaults: false, strict: false });
const validators = new WeakMap<CommandContract, ValidateFunction>();

/** The JSON Schema of a command's whole parameter object, common parameters included. */
export function parameterObjectSchema(contract: CommandContract): JsonSchema {
  return {
    type: 'object',
    properties: { ...COMMON_PARAMETERS, ...contract.parameters },
    required: contract.required ?? [],
    additionalProperties: contract.openParameters === true,
  };
}

function validatorFor(contract: CommandContract): ValidateFunction {
  let validate = validators.get(contract);
  if (!validate) {
    validate = ajv.compile(parameterObjectSchema(contract));
    validators.set(contract, validate);
  }
  return validate;
}

function describe(contract: CommandContract, error: ErrorObject): { parameter?: string; message: string } {
  const command = contract.name;
  switch (error.keyword) {
    case 'additionalProperties': {
      const parameter = String(error.params.additionalProperty);
      const known = Object.keys(contract.parameters);
      const hint = known.length ? ` Known parameters: ${known.join(', ')}.` : ' It takes no parameters.';
      return { parameter, message: `Unknown parameter '${parameter}' for command '${command}'.${hint}` };
    }
    case 'required': {
      const parameter = String(error.params.missingProperty);
      return { parameter, message: `Missing required parameter '${parameter}' for command '${command}'.` };
    }
    default: {
      const parameter = error.instancePath.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
      const where = parameter ? `Parameter '${parameter}'` : 'Parameters';
      return { parameter, message: `${where} of command '${command}' ${error.message ?? 'is invalid'}.` };
    }
  }
}

/**
 * Validates (and, for strings from a query or form, coerces to the declared type) the parameters of one
 * call. Returns the parameters to use; throws PARAM_INVALID naming the first parameter at fault.
 */
export function validateParameters(
  contract: CommandContract,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const copy = { ...params };
  const validate = validatorFor(contract);
  if (!validate(copy)) {
    const { parameter, message } = describe(contract, validate.errors![0]!);
    throw new PipeworkError('PARAM_INVALID', message, { commandName: contract.name, parameter });
  }
  return copy;
}
