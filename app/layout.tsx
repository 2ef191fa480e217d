import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppHeader } from "@/components/layout/app-header";
import { HydrationNotice } from "@/components/layout/hydration-notice";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Recall Inspector", template: "%s · Recall Inspector" },
  description: "Inspect the recall quality of an AI agent's memory store.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <HydrationNotice />
        <AppHeader />
        <Providers>
          <main id="main" className="page">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
