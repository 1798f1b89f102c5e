import type { IdMap } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

/**
 * The `appId` of each application a restore has seen, by object id: the backup's records (the
 * source tenant's object ids) and the live ones (the tenant's). An application matched by its
 * natural key in another tenant ("Into another org") is the target's object, with the target's
 * `appId` ("application resource type": `appId` is Graph's, read-only), so whatever names the
 * source's `appId` (its service principal, keyed by it) must name the target's.
 */
export class ApplicationIds {
  /** object id -> appId */
  private readonly byObject = new Map<string, string>();

  /** Takes an application record's object id and `appId`. */
  learn(record: ResourceRecord): void {
    if (typeof record.data.appId === 'string') this.byObject.set(record.id, record.data.appId);
  }

  /**
   * Source `appId` -> target `appId`, for each application `ids` maps to another object whose
   * `appId` differs (an empty map when none does).
   */
  mapped(ids: IdMap): Map<string, string> {
    const appIds = new Map<string, string>();
    for (const [objectId, appId] of this.byObject) {
      const target = ids.get(objectId);
      const targetAppId = target === undefined ? undefined : this.byObject.get(target);
      if (targetAppId !== undefined && targetAppId !== appId) appIds.set(appId, targetAppId);
    }
    return appIds;
  }
}
