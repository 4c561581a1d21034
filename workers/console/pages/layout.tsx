import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import type { PersonRole } from "../../platform/db/schema";
import { CSRF_FIELD } from "../csrf";

export type NavKey = "avatars" | "videos" | "apps" | "people" | "usage" | "password";

/** `ownerOnly`: hidden from members (the server refuses them too, 403). */
const NAV: { key: NavKey | "live"; href: string; label: string; ownerOnly?: boolean }[] = [
  { key: "avatars", href: "/console/avatars", label: "Avatars" },
  { key: "videos", href: "/console/videos", label: "Videos" },
  { key: "apps", href: "/console/apps", label: "Apps" },
  { key: "people", href: "/console/people", label: "People", ownerOnly: true },
  { key: "usage", href: "/console/usage", label: "Usage" },
  { key: "live", href: "/console/live", label: "Live" },
  { key: "password", href: "/console/password", label: "Password" },
];

export interface Flash {
  kind: "notice" | "error";
  text: string;
}

/** One hidden field carrying the CSRF token; every console form includes it. */
export const CsrfField = (props: { token: string }) => <input type="hidden" name={CSRF_FIELD} value={props.token} />;

export function FlashMessage(props: { flash?: Flash | null }) {
  if (!props.flash) return null;
  return (
    <p class={`flash ${props.flash.kind}`} role={props.flash.kind === "error" ? "alert" : "status"}>
      {props.flash.text}
    </p>
  );
}

/** A whole page; the doctype keeps browsers out of quirks mode. */
function Document(props: { title: string; csrf: string; children: Child }) {
  return (
    <>
      {raw("<!doctype html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="csrf-token" content={props.csrf} />
          <title>{`${props.title} · Avatar Video Console`}</title>
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href="/console/assets/console.css" />
          <script src="/console/assets/console.js" defer></script>
        </head>
        <body>{props.children}</body>
      </html>
    </>
  );
}

/** A signed-in page: header with the account, navigation, Sign out, then the page's heading and content. */
export function Page(props: {
  title: string;
  csrf: string;
  nav: NavKey;
  email: string;
  accountName: string;
  /** The signed-in person's role: a member's navigation leaves out what only owners may do. */
  role?: PersonRole;
  flash?: Flash | null;
  children: Child;
}) {
  const nav = NAV.filter((n) => !n.ownerOnly || props.role === "owner");
  return (
    <Document title={props.title} csrf={props.csrf}>
      <header class="top">
        <div class="brand">
          <strong>Avatar Video</strong>
          <span class="account" title={props.email}>
            {props.accountName}
          </span>
        </div>
        <nav aria-label="Console">
          <ul>
            {nav.map((n) => (
              <li>
                <a href={n.href} aria-current={n.key === props.nav ? "page" : undefined}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <form method="post" action="/console/sign-out" class="sign-out">
          <CsrfField token={props.csrf} />
          <button type="submit" class="secondary">
            Sign out
          </button>
        </form>
      </header>
      <main>
        <h1>{props.title}</h1>
        <FlashMessage flash={props.flash} />
        {props.children}
      </main>
    </Document>
  );
}

/** A signed-out page (sign-in, invite): a centred card. */
export function CardPage(props: { title: string; csrf: string; flash?: Flash | null; children: Child }) {
  return (
    <Document title={props.title} csrf={props.csrf}>
      <main class="card-page">
        <div class="card">
          <p class="brand">
            <strong>Avatar Video</strong> console
          </p>
          <h1>{props.title}</h1>
          <FlashMessage flash={props.flash} />
          {props.children}
        </div>
      </main>
    </Document>
  );
}
