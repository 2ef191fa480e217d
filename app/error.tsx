"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";
import { Button, buttonClassName } from "@/components/ui/button";

/**
 * What every page shows when rendering it threw (the root error boundary): a failure the page
 * did not handle itself, e.g. the database unreachable while a server page read it. The heading
 * takes the focus, so a keyboard or screen-reader user lands on the message and the button after
 * it. "Try again" is `retry`, not `reset`: it fetches the page's server part again before rendering
 * it, where `reset` would re-render what already failed. The server's log has the details; the
 * digest, when there is one, finds the line. No error text is shown: a server error's message
 * never reaches the browser, and a client one is no help to a reader.
 */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  // Next hands over whatever was thrown; a server error arrives as an Error carrying `digest`.
  const digest =
    typeof error === "object" && error !== null && "digest" in error && typeof error.digest === "string" ? error.digest : null;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section className="panel" role="alert" aria-labelledby="page-error-title" data-testid="page-error">
      <h1 id="page-error-title" ref={heading} tabIndex={-1}>
        This page could not be shown
      </h1>
      <p>
        Something failed while showing it: often a moment&apos;s trouble reaching the database or a store. Try again; if it keeps
        failing, the server&apos;s log says why
        {digest ? (
          <>
            {" "}
            (look for <span className="mono">{digest}</span>)
          </>
        ) : null}
        .
      </p>
      <p>
        <Button variant="primary" onClick={() => retry()}>
          Try again
        </Button>{" "}
        <Link className={buttonClassName()} href="/">
          Open the console
        </Link>
      </p>
    </section>
  );
}
