import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import {
  createdId,
  idParts,
  pick,
  type RestoreDefinition,
  type WriteContext,
} from '@libs/providers/okta/restore/restore-definition.js';

const CUSTOMIZATIONS = '/api/v1/brands/{brandId}/templates/email/{templateName}/customizations';
const CUSTOMIZATION = `${CUSTOMIZATIONS}/{customizationId}`;

/** EmailCustomization properties a client sets (createEmailCustomization, replaceEmailCustomization). */
const CONTENT = ['language', 'subject', 'body'];

/** Okta's error code for un-setting the default (OpenAPI example ErrorEmailCustomizationCannotClearDefault). */
const CANNOT_CLEAR_DEFAULT = 'E0000185';

function paramsOf(recordId: string) {
  const [brandId, templateName, customizationId] = idParts(recordId);
  return { brandId, templateName, customizationId };
}

const errorCode = (answer: unknown) => (answer as { errorCode?: unknown } | null)?.errorCode;

/**
 * PUT of the content and `isDefault` (Okta moves the default to a customization set default).
 * @returns Okta's error code when it refused with 409, else undefined
 */
async function replace(recordId: string, content: OktaObject, isDefault: boolean, context: WriteContext) {
  const answer = await context.api.write({
    method: 'PUT',
    template: CUSTOMIZATION,
    params: paramsOf(recordId),
    body: { ...content, isDefault },
    okOn: [409],
    signal: context.signal,
  });
  return errorCode(answer);
}

/** @throws ProviderRequestError naming Okta's code when `refused` is one */
function unlessRefused(refused: unknown, recordId: string): void {
  if (refused !== undefined)
    throw new ProviderRequestError(
      `Okta refused to replace email customization ${recordId}: ${String(refused)}`,
      409,
    );
}

/**
 * Deletes a template's default customization, which Okta refuses to delete alone (409 E0000184)
 * but deletes with all the template's customizations (deleteAllCustomizations).
 * @throws ProviderRequestError (`refusal`, explained) when the template has others: Okta would
 *   need another default first
 */
async function deleteLastDefault(recordId: string, refusal: ProviderRequestError, context: WriteContext) {
  const { brandId, templateName, customizationId } = paramsOf(recordId);
  const params = { brandId, templateName };
  for await (const page of context.api.pages({ template: CUSTOMIZATIONS, params, signal: context.signal }))
    if (page.some((customization) => customization.id !== customizationId))
      throw new ProviderRequestError(
        `${refusal.message}: Okta deletes the default customization of ${templateName} only once it is the last (a second restore does, after the others)`,
        409,
      );
  await context.api.write({ method: 'DELETE', template: CUSTOMIZATIONS, params, signal: context.signal });
}

/**
 * Email customizations, one per template and language. Okta's default rules (Brands API "Email
 * customization"): exactly one default per customized template, the first created; creating
 * another default is refused (409 E0000182) but replacing a customization with `isDefault: true`
 * moves the default to it; the default can be neither un-set (E0000185) nor deleted (E0000184)
 * except with all the template's customizations (deleteAllCustomizations).
 *
 * So a restore creates without `isDefault`, then replaces to make a backed-up default the
 * default. A live default the backup has as non-default cannot be un-set: its content is replaced
 * and it stays the default until the backed-up default is written and takes it. Writes go one at
 * a time (`sequence`, defaults last) so that keeping a live default never races with the write
 * that moves it.
 */
export const emailCustomization: RestoreDefinition = {
  writable: (data) => pick(data, [...CONTENT, 'isDefault']),
  naturalKey(record) {
    const { brandId, templateName } = paramsOf(record.id);
    return typeof record.data.language === 'string'
      ? `${brandId}:${templateName}:${record.data.language}`
      : null;
  },
  sequence: (a, b) => Number(a.data.isDefault === true) - Number(b.data.isDefault === true),
  notes: [
    "A prune deletes a template's default customization only once it is the template's last (Okta refuses otherwise): run the restore again if one is left",
  ],
  async create(record, context) {
    const { brandId, templateName } = paramsOf(record.id);
    const answer = (await context.api.write({
      method: 'POST',
      template: CUSTOMIZATIONS,
      params: { brandId, templateName },
      body: pick(record.data, CONTENT),
      signal: context.signal,
    })) as OktaObject;
    const id = [brandId, templateName, createdId(answer, 'an email customization')].join(':');
    if (record.data.isDefault === true && answer.isDefault !== true)
      unlessRefused(await replace(id, pick(record.data, CONTENT), true, context), id);
    return { id };
  },
  async update(record, live, context) {
    const content = pick(record.data, CONTENT);
    const refused = await replace(live.id, content, record.data.isDefault === true, context);
    if (refused !== CANNOT_CLEAR_DEFAULT) {
      unlessRefused(refused, live.id);
      return [];
    }
    unlessRefused(await replace(live.id, content, true, context), live.id);
    return ['Still the default: Okta moves the default only to another customization of the template'];
  },
  async remove(live, context) {
    try {
      await context.api.write({
        method: 'DELETE',
        template: CUSTOMIZATION,
        params: paramsOf(live.id),
        okOn: [404],
        signal: context.signal,
      });
    } catch (error) {
      if (!(error instanceof ProviderRequestError) || error.status !== 409) throw error;
      await deleteLastDefault(live.id, error, context);
    }
  },
};
