import { IntersectionType } from '@nestjs/swagger';
import { AttributionFilterDto } from '@app/attribution/dto/attribution-filter.dto.js';
import { RestorePreviewQuery } from '@app/restore/dto/restore-preview.query.js';

/**
 * Query of GET /api/restore/undo: the clean backup (`backupId`), and which of the changes since
 * it to reverse: those of `actor`, in `since`..`until`, of `resourceTypes`, to `resourceIds`
 * (a revert of one change: its record id). `resourceIds` needs no `resourceTypes` here.
 */
export class UndoPreviewQuery extends IntersectionType(RestorePreviewQuery, AttributionFilterDto) {}
