import type { Avatar } from "../../platform/db/schema";
import { when } from "./format";
import { CsrfField, type Flash, Page } from "./layout";

export interface AvatarPageProps {
  csrf: string;
  email: string;
  accountName: string;
  flash?: Flash | null;
  avatar: Avatar;
  coverUrl: string;
  backgroundUrl?: string;
}

export function AvatarPage(props: AvatarPageProps) {
  const { avatar } = props;
  return (
    <Page title={avatar.name} nav="avatars" csrf={props.csrf} email={props.email} accountName={props.accountName} flash={props.flash}>
      <p>
        <a href="/console/avatars">← All Avatars</a>
      </p>
      <div class="avatar-large">
        <div>
          <img class="cover" src={props.coverUrl} alt={`Cover of ${avatar.name}`} />
          <p class="hint">
            Created {when(avatar.createdAt)} · <span class={`badge ${avatar.origin}`}>{avatar.origin === "console" ? "Console" : "API"}</span>
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
          <p class="hint">The default background of this Avatar's videos, and its backgroundImageUrl in the Open API.</p>
          {props.backgroundUrl ? <img class="bg-preview" src={props.backgroundUrl} alt="Current background" /> : <p>No background set.</p>}
          <form method="post" action={`/console/avatars/${avatar.id}/background`} enctype="multipart/form-data">
            <CsrfField token={props.csrf} />
            <div class="dropzone">
              <label for="background">Background image</label>
              <input id="background" name="background" type="file" accept="image/jpeg,image/png" required data-sixteen-nine aria-describedby="background-rules" />
              <p id="background-rules" class="hint">
                16:9 JPEG or PNG (for example 1920×1080), at most 20 MiB. Other shapes can be cropped to 16:9 after you confirm.
              </p>
            </div>
            <button type="submit">Save background</button>
          </form>
          {props.backgroundUrl ? (
            <form method="post" action={`/console/avatars/${avatar.id}/background/remove`} data-confirm="Remove this Avatar's background?">
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
