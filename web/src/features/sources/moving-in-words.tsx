/** The moving-in panel's sentences (web/src/features/sources/moving-in.ts), as the panel shows them. */

/** Text with `code` spans, as moving-in.ts writes it. */
export function Words({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence, never reordered
        i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>,
      )}
    </>
  );
}

/** A titled list of sentences. */
export function List({ title, items, ordered = false }: { title: string; items: string[]; ordered?: boolean }) {
  const Tag = ordered ? "ol" : "ul";
  return (
    <div>
      <h4 className="font-medium">{title}</h4>
      <Tag className={`ml-5 mt-1 flex flex-col gap-1 text-sm ${ordered ? "list-decimal" : "list-disc"}`}>
        {items.map((item) => (
          <li key={item}>
            <Words text={item} />
          </li>
        ))}
      </Tag>
    </div>
  );
}
