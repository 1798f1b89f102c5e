import type { Finding } from '@libs/compliance/compliance-types.js';
import { badge, escapeHtml, figures, reportDocument, type ReportCover, table } from './layout.js';

/** One connection's result in the compliance report. */
export interface ComplianceSection {
  connection: string;
  orgUrl: string;
  backupId: string;
  collectedAt: string;
  score: number;
  findings: readonly Finding[];
}

/** What the compliance report shows (docs/export.md). */
export interface ComplianceReportData {
  cover: ReportCover;
  framework: string;
  catalogueVersion: string;
  sections: readonly ComplianceSection[];
}

/** Resources a finding names: the first few ids, and how many in all. */
function named(finding: Finding): string {
  const { resources, total } = finding.evidence;
  if (total === 0) return '-';
  const shown = resources.slice(0, 5).map((resource) => resource.name ?? resource.id);
  return `${shown.join(', ')}${total > shown.length ? ` (+${total - shown.length} more)` : ''}`;
}

const observed = (value: unknown) => (value === null || value === undefined ? '-' : JSON.stringify(value));

/** A framework's report: the scores first, then every control with its status and evidence. */
export function complianceReport(data: ComplianceReportData): string {
  const sections = data.sections.map((section) => {
    const counts = (status: string) => section.findings.filter((finding) => finding.status === status).length;
    return `<h2>${escapeHtml(section.connection)}</h2><p class="muted small">${escapeHtml(section.orgUrl)} · backup ${escapeHtml(section.backupId)} · collected ${escapeHtml(section.collectedAt)}</p>${figures(
      [
        ['Score', `${section.score} / 100`],
        ['Pass', counts('pass')],
        ['Fail', counts('fail')],
        ['Warning', counts('warning')],
        ['Manual', counts('manual')],
      ],
    )}${table(
      ['Control', 'Status', 'Severity', 'Requirement', 'Observed', 'Expected', 'Resources'],
      section.findings.map((finding) => [
        finding.control,
        finding.status,
        finding.severity,
        finding.requirement,
        observed(finding.evidence.observed),
        observed(finding.evidence.expected),
        named(finding),
      ]),
      'No control.',
      [8, 10, 10, 28, 15, 15, 14],
    )}`;
  });
  const summary = `<h2>Summary</h2>${table(
    ['Connection', 'Score', 'Failed controls'],
    data.sections.map((section) => [
      section.connection,
      `${section.score} / 100`,
      section.findings.filter((finding) => finding.status === 'fail').length,
    ]),
    'No connection of the team has a completed backup to check.',
    [60, 20, 20],
  )}<p class="small muted">Framework ${escapeHtml(data.framework)}; check catalogue ${escapeHtml(data.catalogueVersion)}. Each finding's evidence (backup, JSON pointers, values) is in the API answer of POST /api/compliance/check and the audit pack. ${badge('pass')} ${badge('fail')} ${badge('warning')}</p>`;
  return reportDocument(data.cover, [summary, ...sections]);
}
