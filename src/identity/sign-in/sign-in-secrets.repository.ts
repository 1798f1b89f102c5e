import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SignInSecretEntity } from './sign-in-secret.entity.js';

/** Shared sign-in secrets (`sign_in_secrets`). */
@Injectable()
export class SignInSecretsRepository {
  constructor(@InjectRepository(SignInSecretEntity) private readonly rows: Repository<SignInSecretEntity>) {}

  /**
   * The stored secret `name`, storing `candidate` first when there is none. Replicas booting
   * together may each offer a candidate; the first insert wins and all of them read it back.
   */
  async findOrInsert(name: string, candidate: string): Promise<string> {
    await this.rows.query(
      'INSERT INTO sign_in_secrets (name, secret_enc) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
      [name, candidate],
    );
    const stored = await this.rows.findOneByOrFail({ name });
    return stored.secretEnc;
  }
}
