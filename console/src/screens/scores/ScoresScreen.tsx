import { Stack } from '@mantine/core';
import { scoresMessages as text } from '../../messages/scores';
import { ReadinessSection } from './ReadinessSection';
import { ResilienceSection } from './ResilienceSection';
import { useConnectionChoices } from '../../api/connection-choices';
import { ScreenHeading } from '../../components/ScreenHeading';

/**
 * Scores (permission `view backups`; docs/scores.md): the team's restore readiness with each
 * connection's drift since its last backup, then one connection's resilience with its five
 * factors and recommendations. Both are computed by the API from its own records; the screen
 * never makes the API call the provider.
 */
export function ScoresScreen() {
  const connections = useConnectionChoices();
  return (
    <Stack>
      <ScreenHeading title={text.title} />
      <ReadinessSection choices={connections.choices} />
      <ResilienceSection connections={connections} />
    </Stack>
  );
}
