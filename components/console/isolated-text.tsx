import type { ReactNode } from "react";

/**
 * A translated sentence with the values in it (an email, a phone, an id) isolated, so in an
 * Arabic sentence "owner@shop.example" keeps its own left-to-right order instead of breaking
 * apart around the @ and the dots. `values` are the strings the message was given.
 */
export function IsolatedText({
  text,
  values,
  direction = "ltr",
}: {
  text: string;
  values: readonly (string | null | undefined)[];
  /** "auto" for a value in any script (a link's title); an email, phone or id is left to right. */
  direction?: "ltr" | "auto";
}): ReactNode {
  const wanted = values.filter((value): value is string => Boolean(value));
  if (wanted.length === 0) return text;
  const pattern = new RegExp(`(${wanted.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`);
  return text.split(pattern).map((part, index) =>
    index % 2 === 1 ? (
      <bdi key={index} dir={direction}>
        {part}
      </bdi>
    ) : (
      part
    ),
  );
}
