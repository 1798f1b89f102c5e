import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import type { CredentialField, ProviderDescriptor } from '@libs/providers/provider-descriptor.js';
import { PRIMARY_PROVIDER_KIND, providerDescriptor, registeredProviders } from '@libs/providers/registry.js';

/** One flat body property: a credential field as every registered provider declaring it has it. */
interface CredentialProperty {
  name: string;
  /** the providers declaring the field, with their declaration, in the registry's order */
  declarations: Array<{ provider: ProviderDescriptor; field: CredentialField }>;
}

/** Which body a class is: the create body requires a kind's fields, the update body none. */
export type ConnectionBody = 'create' | 'update';

/**
 * Declares on a connection body's class (POST /api/connections/create, PATCH
 * /api/connections/[id]) one flat property per credential field of the registered providers (spec
 * "Connections": the body is flat, `client_id`, `client_secret`, `tenant_id`...), with its OpenAPI
 * text and its validation, so a new provider's fields are accepted without editing the bodies and
 * the global pipe's whitelist still refuses every other name (and, on the update body, the fields
 * set at creation only: `createOnly`). Runs when the body's module loads.
 */
export function declareCredentialFields(body: ConnectionBody, target: abstract new () => object): void {
  for (const property of credentialProperties()) {
    const { name, declarations } = property;
    if (body === 'update' && declarations.every(({ field }) => field.createOnly)) continue;
    const maxLength = Math.max(...declarations.map(({ field }) => field.maxLength));
    const first = declarations.find(({ field }) => field.example !== undefined)?.field;
    const format = declarations.find(({ field }) => field.format !== undefined)?.field.format;
    const secret = declarations.some(({ field }) => field.secret);
    ApiProperty({
      type: String,
      required: body === 'create' && requiredByEvery(name),
      minLength: 1,
      maxLength,
      ...(format ? { format } : {}),
      ...(first?.example ? { example: first.example } : {}),
      ...(secret ? { writeOnly: true } : {}),
      description: describe(property, secret),
    })(target.prototype, name);
    isCredential(body, name, maxLength)(target.prototype, name);
  }
}

/** Every credential field name of the registered providers, first declaration first. */
function credentialProperties(): CredentialProperty[] {
  const byName = new Map<string, CredentialProperty>();
  for (const provider of registeredProviders())
    for (const field of provider.credentials) {
      const property = byName.get(field.name) ?? { name: field.name, declarations: [] };
      property.declarations.push({ provider, field });
      byName.set(field.name, property);
    }
  return [...byName.values()];
}

/** The field is required, with no alternative, by every registered provider (OpenAPI `required`). */
function requiredByEvery(name: string): boolean {
  return registeredProviders().every((provider) =>
    provider.credentials.some((field) => field.name === name && !field.oneOf),
  );
}

/** "Okta: …; Microsoft Entra ID: … Instead of client_certificate. Write-only: never returned." */
function describe({ declarations }: CredentialProperty, secret: boolean): string {
  const parts = declarations.map(({ provider, field }) => {
    const alternatives = alternativesOf(provider, field);
    const instead = alternatives.length > 0 ? ` Instead of ${alternatives.join(' or ')}.` : '';
    return `${provider.label}: ${field.description}${instead}`;
  });
  return [...parts, ...(secret ? ['Write-only: never returned.'] : [])].join(' ');
}

/** The other fields of the field's `oneOf` group in its provider's descriptor. */
function alternativesOf(provider: ProviderDescriptor, field: CredentialField): string[] {
  if (!field.oneOf) return [];
  return provider.credentials
    .filter(({ name, oneOf }) => oneOf === field.oneOf && name !== field.name)
    .map(({ name }) => name);
}

/**
 * What the create body's kind demands of a field it lacks: undefined when the kind does not require
 * it (another kind's field, or an alternative given instead), else the names to report as missing
 * (the field, or its group of alternatives, reported on the group's first field only).
 */
function missingOf(body: Record<string, unknown>, name: string): string[] | undefined {
  const provider = providerDescriptor(
    typeof body.provider === 'string' ? body.provider : PRIMARY_PROVIDER_KIND,
  );
  const field = provider?.credentials.find((candidate) => candidate.name === name);
  if (!provider || !field) return undefined;
  if (!field.oneOf) return [name];
  const group = provider.credentials
    .filter(({ oneOf }) => oneOf === field.oneOf)
    .map((member) => member.name);
  if (group[0] !== name || group.some((member) => body[member] !== undefined)) return undefined;
  return group;
}

/**
 * A credential property's check: a string of 1 to `maxLength` characters when given; on the create
 * body, present when the body's kind (`provider`, else the primary kind) requires it, refused as
 * "`tenant_id` is required for entra_id connections" (the same words as the service's own check).
 */
function isCredential(body: ConnectionBody, name: string, maxLength: number): PropertyDecorator {
  const problem = (value: unknown, object: object): string | undefined => {
    if (value === undefined) {
      const missing = body === 'create' ? missingOf(object as Record<string, unknown>, name) : undefined;
      if (!missing) return undefined;
      const kind = (object as { provider?: string }).provider ?? PRIMARY_PROVIDER_KIND;
      return `${missing.join(' or ')} is required for ${kind} connections`;
    }
    if (typeof value !== 'string') return `${name} must be a string`;
    if (value.length < 1) return `${name} must be longer than or equal to 1 characters`;
    if (value.length > maxLength) return `${name} must be shorter than or equal to ${maxLength} characters`;
    return undefined;
  };
  return ValidateBy({
    name: 'isCredential',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        problem(value, args?.object ?? {}) === undefined,
      defaultMessage: (args?: ValidationArguments) => problem(args?.value, args?.object ?? {}) ?? '',
    },
  });
}
