"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { SIGN_IN_PATH } from "@/lib/auth/access";
import { NAV_ITEMS } from "./nav";

export function AppHeader() {
  const pathname = usePathname() ?? "/";
  // Before signing in, the sections would only send the visitor back here.
  if (pathname === SIGN_IN_PATH) {
    return (
      <header className="app-header">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◎
          </span>
          Recall Inspector
        </span>
      </header>
    );
  }
  return (
    <header className="app-header">
      <Link href="/" className="brand">
        <span className="brand-mark" aria-hidden="true">
          ◎
        </span>
        Recall Inspector
      </Link>
      <nav aria-label="Main">
        <ul className="nav-list">
          {NAV_ITEMS.map((item) => {
            const active = item.match(pathname);
            return (
              <li key={item.href}>
                <Link href={item.href} className="nav-link" aria-current={active ? "page" : undefined}>
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <SignOutButton />
    </header>
  );
}
