import Link from "next/link";

export default function NotFound() {
  return (
    <section className="panel empty-state">
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. Go back to the <Link href="/">console</Link>.
      </p>
    </section>
  );
}
