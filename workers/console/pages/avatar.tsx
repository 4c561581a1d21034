import type { Avatar, PersonRole } from "../../platform/db/schema";
import { when } from "./format";
import { CsrfField, type Flash, Page } from "./layout";

export interface AvatarPageProps {
  csrf: string;
  email: string;
  accountName: string;
  role?: PersonRole;
  flash?: Flash | null;
  avatar: Avatar;
  coverUrl: string;
  backgroundUrl?: string;
  /** The portrait and, once the Avatar has one, its matte: the person cut out on the saved background. */
  cutout: { portraitUrl: string; matteUrl?: string };
}

/**
 * The person cut out on the saved background (or on a checkerboard: transparent), framed like a video
 * with fit "contain". An SVG mask, because the page's CSP allows no inline styles; the matte is greyscale,
 * which is what an SVG luminance mask reads.
 */
function Cutout(props: { name: string; backgroundUrl?: string; portraitUrl: string; matteUrl?: string }) {
  return (
    <svg
      class="cutout"
      viewBox="0 0 1600 900"
      role="img"
      aria-label={`${props.name} cut out on ${props.backgroundUrl ? "the saved background" : "a transparent background"}`}
    >
      <defs>
        <pattern id="checker" width="40" height="40" patternUnits="userSpaceOnUse">
          <rect width="40" height="40" fill="#e9ecf0" />
          <rect width="20" height="20" fill="#cfd5dc" />
          <rect x="20" y="20" width="20" height="20" fill="#cfd5dc" />
        </pattern>
        {props.matteUrl ? (
          <mask id="person" maskUnits="userSpaceOnUse" x="0" y="0" width="1600" height="900">
            <image href={props.matteUrl} x="350" y="0" width="900" height="900" />
          </mask>
        ) : null}
        {/* Where the photo ends, the person fades out over W/24 (here 1600/24 of its 900), as in the videos. */}
        <linearGradient id="sides">
          <stop offset="0" stop-color="black" />
          <stop offset="0.074" stop-color="white" />
          <stop offset="0.926" stop-color="white" />
          <stop offset="1" stop-color="black" />
        </linearGradient>
        <mask id="fade" maskUnits="userSpaceOnUse" x="0" y="0" width="1600" height="900">
          <rect x="350" width="900" height="900" fill="url(#sides)" />
        </mask>
      </defs>
      {props.backgroundUrl ? (
        <image href={props.backgroundUrl} width="1600" height="900" preserveAspectRatio="xMidYMid slice" />
      ) : (
        <rect width="1600" height="900" fill="url(#checker)" />
      )}
      <g mask={props.matteUrl ? "url(#fade)" : undefined}>
        <image
          href={props.portraitUrl}
          x="350"
          y="0"
          width="900"
          height="900"
          mask={props.matteUrl ? "url(#person)" : undefined}
        />
      </g>
    </svg>
  );
}

export function AvatarPage(props: AvatarPageProps) {
  const { avatar } = props;
  return (
    <Page
      title={avatar.name}
      nav="avatars"
      csrf={props.csrf}
      email={props.email}
      accountName={props.accountName}
      role={props.role}
      flash={props.flash}
    >
      <p>
        <a href="/console/avatars">← All Avatars</a>
      </p>
      <div class="avatar-large">
        <div>
          <img class="cover" src={props.coverUrl} alt={`Cover of ${avatar.name}`} />
          <p class="hint">
            Created {when(avatar.createdAt)} ·{" "}
            <span class={`badge ${avatar.origin}`}>{avatar.origin === "console" ? "Console" : "API"}</span>
          </p>
          <p class="hint">
            Avatar ID <code>{avatar.id}</code>
          </p>
          <a class="button secondary" href={`/console/videos?avatarId=${avatar.id}`}>
            Make a video
          </a>
        </div>
        <section class="panel">
          <h2>Background</h2>
          <p class="hint">
            The default background of this Avatar's videos, and its backgroundImageUrl in the Open API: the person is
            shown in front of it.
          </p>
          <Cutout name={avatar.name} backgroundUrl={props.backgroundUrl} {...props.cutout} />
          {props.cutout.matteUrl ? null : (
            <p class="hint">
              The cut-out is made with this Avatar's first video that needs it (a background, Replace background or a
              transparent WebM).
            </p>
          )}
          {props.backgroundUrl ? null : <p>No background set.</p>}
          <form method="post" action={`/console/avatars/${avatar.id}/background`} enctype="multipart/form-data">
            <CsrfField token={props.csrf} />
            <div class="dropzone">
              <label for="background">Background image</label>
              <input
                id="background"
                name="background"
                type="file"
                accept="image/jpeg,image/png"
                required
                data-sixteen-nine
                aria-describedby="background-rules"
              />
              <p id="background-rules" class="hint">
                16:9 JPEG or PNG (for example 1920×1080), at most 20 MiB. Other shapes can be cropped to 16:9 after you
                confirm.
              </p>
            </div>
            <button type="submit">Save background</button>
          </form>
          {props.backgroundUrl ? (
            <form
              method="post"
              action={`/console/avatars/${avatar.id}/background/remove`}
              data-confirm="Remove this Avatar's background?"
            >
              <CsrfField token={props.csrf} />
              <button type="submit" class="danger">
                Remove background
              </button>
            </form>
          ) : null}
        </section>
      </div>
    </Page>
  );
}
