// Node-RED's settings for the peer bench: no editor, no credentials file, quiet logs.
module.exports = {
  flowFile: 'flow.json',
  httpAdminRoot: false,
  credentialSecret: false,
  logging: { console: { level: 'warn', metrics: false, audit: false } },
  editorTheme: { tours: false },
};
