import { Module } from '@nestjs/common';
import { AccountExportRepository } from './account-export.repository.js';
import { AccountExportService } from './account-export.service.js';
import { AccountController } from './account.controller.js';

/** Account data rights (issue 27): the data export. */
@Module({ controllers: [AccountController], providers: [AccountExportService, AccountExportRepository] })
export class AccountModule {}
