import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type LiveTopic, onLive } from '../realtime/live-signals.ts';

/**
 * Fetches the queries under `queryKey` again whenever a live event of one of the topics
 * arrives (the user's subscription, family group or referrals changed elsewhere).
 */
export function useLiveRefetch(topics: readonly LiveTopic[], queryKey: QueryKey): void {
  const client = useQueryClient();
  const key = JSON.stringify(queryKey);
  const topicList = topics.join(',');
  useEffect(() => {
    const parsed = JSON.parse(key) as QueryKey;
    const stops = (topicList.split(',') as LiveTopic[]).map((topic) =>
      onLive(topic, () => void client.invalidateQueries({ queryKey: parsed })),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }, [client, key, topicList]);
}
