import { useTranslation } from 'react-i18next';
import type { Lang } from '#shared/locales.ts';
import { Button } from '../../../ui/button.tsx';
import { FieldError } from '../../../ui/form-field.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { MarkdownField } from './markdown-field.tsx';

type Question = { question: string; answer: string };

/** An FAQ's questions, in order: each a question and a Markdown answer; add, move, remove. */
export function QuestionsField(props: {
  lang: Lang;
  questions: Question[];
  errors: Partial<Record<string, string>>;
  onChange: (questions: Question[]) => void;
}) {
  const { t } = useTranslation();
  const { questions, onChange } = props;
  const change = (index: number, next: Partial<Question>) =>
    onChange(questions.map((q, i) => (i === index ? { ...q, ...next } : q)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...questions];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + by, 0, moved);
    onChange(next);
  };
  return (
    <fieldset className="flex flex-col gap-4">
      <legend className="text-sm font-medium text-slate-800">
        {t('staff_content.fields.questions')}
      </legend>
      <FieldError message={props.errors.questions} />
      <ol className="flex flex-col gap-4">
        {questions.map((q, index) => {
          const number = index + 1;
          return (
            // Questions have no id of their own; their place is what staff change.
            // biome-ignore lint/suspicious/noArrayIndexKey: the position is the identity here
            <li key={index} className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3">
              <TextInput
                label={t('staff_content.fields.question', { number })}
                value={q.question}
                error={props.errors[`questions.${index}.question`]}
                onChange={(event) => change(index, { question: event.target.value })}
              />
              <MarkdownField
                label={t('staff_content.fields.answer', { number })}
                hint={t('staff_content.fields.contents_hint')}
                value={q.answer}
                lang={props.lang}
                rows={4}
                error={props.errors[`questions.${index}.answer`]}
                onChange={(answer) => change(index, { answer })}
              />
              <div className="flex flex-wrap gap-2">
                <Button
                  type="button"
                  variant="ghost"
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  {t('staff_content.fields.move_up', { number })}
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  disabled={index === questions.length - 1}
                  onClick={() => move(index, 1)}
                >
                  {t('staff_content.fields.move_down', { number })}
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  onClick={() => onChange(questions.filter((_, i) => i !== index))}
                >
                  {t('staff_content.fields.remove_question', { number })}
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          type="button"
          onClick={() => onChange([...questions, { question: '', answer: '' }])}
        >
          {t('staff_content.fields.add_question')}
        </Button>
      </div>
    </fieldset>
  );
}
