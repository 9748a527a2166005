import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { voteHelpful } from '../site-api.ts';

type State = 'asking' | 'sending' | 'thanked' | 'failed';

/** "Was this helpful?" under a help article: one vote, counted for staff (help insights). */
export function WasThisHelpful({ translationId }: { translationId: number }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>('asking');
  const vote = (helpful: boolean) => {
    setState('sending');
    voteHelpful(translationId, helpful).then(
      () => setState('thanked'),
      () => setState('failed'),
    );
  };
  const button =
    'rounded-lg border border-slate-300 px-4 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-60';
  return (
    <section
      className="mt-10 rounded-2xl border border-slate-200 bg-white p-5"
      aria-labelledby="helpful-heading"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="helpful-heading" className="font-medium text-slate-900">
          {t('public_site.help.helpful')}
        </h2>
        {state !== 'thanked' && (
          <>
            <button
              type="button"
              onClick={() => vote(true)}
              disabled={state === 'sending'}
              className={button}
            >
              {t('public_site.help.yes')}
            </button>
            <button
              type="button"
              onClick={() => vote(false)}
              disabled={state === 'sending'}
              className={button}
            >
              {t('public_site.help.no')}
            </button>
          </>
        )}
      </div>
      <p className="mt-2 text-sm text-slate-700" role="status">
        {state === 'thanked' && t('public_site.help.thanks')}
        {state === 'failed' && t('public_site.help.vote_failed')}
      </p>
    </section>
  );
}
