// The YAML language service's web worker (schema validation, completion, hover, format), built by Vite.
import 'monaco-yaml/yaml.worker.js';
