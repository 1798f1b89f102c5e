/** The connection form's text (spec "Connections", docs/okta-workflows.md, docs/resource-types.md "Microsoft Entra ID"). */
export const connectionFormMessages = {
  titleNew: 'New connection',
  titleEdit: 'Edit connection',
  close: 'Close',
  provider: 'Provider',
  providers: { okta: 'Okta', entra_id: 'Entra ID', okta_workflows: 'Okta Workflows' },
  name: 'Name (optional)',
  unchanged: 'Unchanged',
  fields: {
    org_url: 'Org URL',
    graph_url: 'Microsoft Graph URL (optional)',
    graph_url_description: 'Leave empty for https://graph.microsoft.com.',
    client_id: 'Client ID',
    client_secret: 'Client secret',
    private_key: 'Private key (PEM or private JWK)',
    flow_alias: 'Flow alias',
    tenant_id: 'Tenant ID',
    certificate: 'Certificate and private key (PEM file)',
    certificate_description:
      'The certificate uploaded to the app registration, followed by its unencrypted private key, in one PEM file.',
    certificate_clear: 'Remove the certificate file',
    certificate_read: (name: string) =>
      `${name} read; it is sent once, when you save, and never shown again.`,
  },
  credential: 'Credential',
  credentials: { secret: 'Secret', certificate: 'Certificate' },
  missingPermissions:
    'Grant these Microsoft Graph application permissions to the app registration (with admin consent), then try again:',
  cancel: 'Cancel',
  save: 'Save',
  create: 'Create connection',
  saved: (name: string) => `Saved connection ${name}`,
} as const;
