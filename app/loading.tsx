import { LoadingState } from "@/components/ui/states";

/**
 * What every page shows while the server renders it (a dynamic page, or a navigation to one): the
 * root Suspense boundary, so a page needs an inline fallback only where it has something more
 * specific to say, or a static page keeps its header in the prerendered HTML.
 */
export default function Loading() {
  return (
    <section className="panel">
      <LoadingState>Loading this page…</LoadingState>
    </section>
  );
}
