import { ApprovalGateModule } from '@app/approvals/approval-gate.module.js';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConnectionEntity } from './connection.entity.js';
import { ConnectionsController } from './connections.controller.js';
import { ConnectionsRepository } from './connections.repository.js';
import { ConnectionsService } from './connections.service.js';
import { ProviderConnectorFactory } from './provider-connector.factory.js';

@Module({
  imports: [TypeOrmModule.forFeature([ConnectionEntity]), ApprovalGateModule],
  controllers: [ConnectionsController],
  providers: [ConnectionsService, ConnectionsRepository, ProviderConnectorFactory],
  exports: [ConnectionsService, ProviderConnectorFactory],
})
export class ConnectionsModule {}
