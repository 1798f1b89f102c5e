import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';

/**
 * The boundary rules of eslint.config.js (STYLE "Layout", docs/architecture.md) report what they are meant
 * to: each case lints a small fixture at a path where it breaks one rule, and one where the same code is
 * allowed, so a rule that silently stops matching fails here.
 */
const eslint = new ESLint({ cwd: process.cwd() });

/** The messages ESLint reports for `code` as if it were the file at `filePath`. */
async function lint(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath, warnIgnored: true });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('boundary lint rules report each forbidden import and pass the allowed ones', () => {
  it.each<[string, string, string, RegExp]>([
    [
      "'../' imports",
      'src/backups/backups.service.ts',
      "import { Permission } from '../common/permission.js';\nexport type P = Permission;",
      /no-restricted-imports: .*not '\.\.\/'/,
    ],
    [
      "'../' in a dynamic import",
      'test/backups.e2e-spec.ts',
      "export const load = () => import('../src/main.js');",
      /no-restricted-syntax: .*not '\.\.\/'/,
    ],
    [
      'libs importing src',
      'libs/snapshot/snapshot-writer.ts',
      "import { Permission } from '@app/common/permission.js';\nexport type P = Permission;",
      /no-restricted-imports: .*never imports src/,
    ],
    [
      'libs importing test',
      'libs/providers/okta/okta-connector.ts',
      "import { startOrg } from './test/support/okta-org.js';\nexport const s = startOrg;",
      /no-restricted-imports: .*never imports src/,
    ],
    [
      'libs importing test through the alias',
      'libs/providers/okta/okta-connector.ts',
      "import { startOrg } from '@test/support/okta-org.js';\nexport const s = startOrg;",
      /no-restricted-imports: .*never imports src\/ \(@app\), Nest or test\/ \(@test\)/,
    ],
    [
      'Nest in libs (the restore engine)',
      'libs/restore/executor.ts',
      "import { Logger } from '@nestjs/common';\nexport const L = Logger;",
      /no-restricted-imports: .*never imports src\/ \(@app\), Nest/,
    ],
    [
      'typeorm in a service',
      'src/platform/health/health.service.ts',
      "import { DataSource } from 'typeorm';\nexport type D = DataSource;",
      /no-restricted-imports: .*Only repositories, entities/,
    ],
    [
      'typeorm itself in a module',
      'src/platform/health/health.module.ts',
      "import { DataSource } from 'typeorm';\nexport type D = DataSource;",
      /no-restricted-imports: .*registers entities through @nestjs\/typeorm/,
    ],
    [
      'typeorm in libs',
      'libs/snapshot/snapshot-writer.ts',
      "import { DataSource } from 'typeorm';\nexport type D = DataSource;",
      /no-restricted-imports: .*Only repositories, entities/,
    ],
    [
      'process.env in libs',
      'libs/providers/okta/okta-connector.ts',
      'export const url = process.env.OKTA_URL;',
      /no-restricted-properties: .*through src\/platform\/config/,
    ],
    [
      'process.env in a feature',
      'src/backups/backups.service.ts',
      'export const url = process.env.OKTA_URL;',
      /no-restricted-properties: .*through src\/platform\/config/,
    ],
    [
      "another feature's repository",
      'src/restore/restore.service.ts',
      "import { BackupsRepository } from '@app/backups/backups.repository.js';\nexport type R = BackupsRepository;",
      /no-restricted-imports: .*other feature's service/,
    ],
    [
      "another feature's entity in a module",
      'src/timeline/timeline.module.ts',
      "import { BackupEntity } from '@app/backups/backup.entity.js';\nexport type E = BackupEntity;",
      /no-restricted-imports: .*other feature's service/,
    ],
    [
      "another feature's repository in an entity",
      'src/restore/restore.entity.ts',
      "import { BackupsRepository } from '@app/backups/backups.repository.js';\nexport type R = BackupsRepository;",
      /no-restricted-imports: .*other feature's service/,
    ],
    [
      "a provider's own folder from src",
      'src/diff/diff.service.ts',
      "import { OKTA_SEVERITY_RULES } from '@libs/providers/okta/severity/okta-severity-rules.js';\nexport const r = OKTA_SEVERITY_RULES;",
      /no-restricted-imports: .*through the registry/,
    ],
  ])('refuses %s', async (_rule, filePath, code, expected) => {
    expect(await lint(filePath, code)).toEqual([expect.stringMatching(expected)]);
  });

  it('refuses an import cycle, followed through an alias and a sibling', async () => {
    // Two real files: the rule follows imports on disk, through tsconfig.json's paths.
    const folder = mkdtempSync(join('libs', 'cycle-fixture-'));
    try {
      const alias = `@libs/${basename(folder)}`;
      writeFileSync(
        join(folder, 'a.ts'),
        `import { b } from '${alias}/b.js';\nexport const a = (): number => b() + 1;\n`,
      );
      writeFileSync(
        join(folder, 'b.ts'),
        "import { a } from './a.js';\nexport const b = (): number => a() - 1;\n",
      );
      const results = await eslint.lintFiles([join(folder, 'a.ts'), join(folder, 'b.ts')]);
      const messages = results.map((result) => result.messages.map((message) => message.ruleId));
      expect(messages).toEqual([['import-x/no-cycle'], ['import-x/no-cycle']]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.each<[string, string, string]>([
    [
      'an alias',
      'src/backups/backups.service.ts',
      "import { Permission } from '@app/common/permission.js';\nexport type P = Permission;",
    ],
    [
      'a sibling',
      'libs/snapshot/snapshot-writer.ts',
      "import { SnapshotReader } from './snapshot-reader.js';\nexport type R = SnapshotReader;",
    ],
    [
      'typeorm in a repository',
      'src/platform/health/health.repository.ts',
      "import { DataSource } from 'typeorm';\nexport type D = DataSource;",
    ],
    [
      '@nestjs/typeorm in a module',
      'src/platform/health/health.module.ts',
      "import { TypeOrmModule } from '@nestjs/typeorm';\nexport const m = TypeOrmModule;",
    ],
    [
      "src/platform/database's tracked-run base from a feature's repository",
      'src/restore/restores.repository.ts',
      "import { TrackedRunRepository } from '@app/platform/database/tracked-run/tracked-run.repository.js';\nexport type R = TrackedRunRepository<never>;",
    ],
    [
      'the provider registry from src',
      'src/diff/diff.service.ts',
      "import { requireProvider } from '@libs/providers/registry.js';\nexport const p = requireProvider;",
    ],
    [
      'process.env in src/platform/config',
      'src/platform/config/app-config.ts',
      'export const url = process.env.OKTA_URL;',
    ],
    [
      "the feature's own repository through the alias",
      'src/backups/backups.service.ts',
      "import { BackupsRepository } from '@app/backups/backups.repository.js';\nexport type R = BackupsRepository;",
    ],
    [
      "an entity naming another feature's entity (a relation)",
      'src/restore/restore.entity.ts',
      "import { ConnectionEntity } from '@app/connections/connection.entity.js';\nexport type E = ConnectionEntity;",
    ],
  ])('allows %s', async (_case, filePath, code) => {
    expect(await lint(filePath, code)).toEqual([]);
  });
});
