/** The forms feature: an app's object schema as a form (the form library, server validation, file fields). */
export { ObjectForm, type ObjectFormProps } from './ObjectForm';
export { columnsOf, normalizeSchema, uiSchemaOf, errorTreeOf, type ListColumn } from './form-schema';
