"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { buttonClassName } from "@/components/ui/button";
import { SIGN_IN_PATH } from "@/lib/auth/access";
import styles from "./app-header.module.css";
import { NAV_ITEMS } from "./nav";

function Brand({ link }: { link: boolean }) {
  const inner = (
    <>
      <span className={styles.brandMark} aria-hidden="true">
        ◎
      </span>
      Recall Inspector
    </>
  );
  return link ? (
    <Link href="/" className={styles.brand}>
      {inner}
    </Link>
  ) : (
    <span className={styles.brand}>{inner}</span>
  );
}

export function AppHeader() {
  const pathname = usePathname() ?? "/";
  // The menu is open for the page it was opened on: following a link (a new pathname) closes it
  // without an effect, and reopening it on the new page works as before.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const current = NAV_ITEMS.find((item) => item.match(pathname));

  // Before signing in, the sections would only send the visitor back here.
  if (pathname === SIGN_IN_PATH) {
    return (
      <header className={styles.header}>
        <Brand link={false} />
      </header>
    );
  }
  return (
    <header
      className={styles.header}
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          setOpenOn(null);
          document.getElementById("main-menu-toggle")?.focus();
        }
      }}
    >
      <Brand link />
      {/* On a phone the sections do not fit beside the brand: they fold into a menu (the toggle
          is hidden on wider screens, where the list is always shown). */}
      <nav aria-label="Main" className={styles.nav} data-open={open ? "true" : undefined}>
        <button
          type="button"
          id="main-menu-toggle"
          className={buttonClassName({ className: styles.menuToggle })}
          aria-expanded={open}
          aria-controls="main-menu"
          onClick={() => setOpenOn(open ? null : pathname)}
        >
          <span aria-hidden="true" className={styles.menuIcon}>
            {open ? "✕" : "☰"}
          </span>
          Menu
          {current ? <span className={styles.menuCurrent}>· {current.label}</span> : null}
        </button>
        <ul id="main-menu" className={styles.navList}>
          {NAV_ITEMS.map((item) => {
            const active = item.match(pathname);
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  className={styles.navLink}
                  aria-current={active ? "page" : undefined}
                  onClick={() => setOpenOn(null)}
                >
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
