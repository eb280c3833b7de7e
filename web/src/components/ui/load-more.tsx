import { Button } from "./button";

/** The "Load more" of a list read a page at a time (an infinite query's next page), shown while there is one. */
export function LoadMore({
  list,
  label = "Load more",
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  label?: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <div className="mt-4">
      <Button variant="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
        {list.isFetchingNextPage ? "Loading…" : label}
      </Button>
    </div>
  );
}
