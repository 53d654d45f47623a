import { Button, type ButtonVariant } from "./button";

/**
 * A sandbox page's answers (3DS Complete / Fail, wallet Approve / Decline): one plain HTML
 * form per answer, posting the page's hidden fields and `outcome`. They work before the
 * page's script has run, and without it.
 */
export function AnswerForms({
  action,
  hidden,
  answers,
}: {
  action: string;
  hidden: Record<string, string>;
  answers: { outcome: string; label: string; variant: ButtonVariant }[];
}) {
  return answers.map(({ outcome, label, variant }) => (
    <form key={outcome} method="post" action={action}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="outcome" value={outcome} />
      <Button type="submit" variant={variant}>
        {label}
      </Button>
    </form>
  ));
}
