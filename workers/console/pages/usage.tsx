import type { Account, PersonRole } from "../../platform/db/schema";
import type { Flash } from "./layout";
import { Page } from "./layout";

export interface UsageFigures {
  avatarUnits: number;
  reservedAvatarUnits: number;
  avatarCreations24h: number;
  videoCreations24h: number;
}

const LIMIT_ROWS: { key: string; label: string }[] = [
  { key: "perMinute", label: "Creations per minute" },
  { key: "perHour", label: "Creations per hour" },
  { key: "perDay", label: "Creations per rolling 24 hours" },
  { key: "concurrent", label: "Concurrent active creation jobs" },
  { key: "readsPerSecond", label: "Reads per second" },
  { key: "readBurst", label: "Read burst" },
  { key: "readsPerMinute", label: "Reads per minute" },
];

const onOff = (v: boolean) => (v ? "on" : "off");

export function UsagePage(props: {
  csrf: string;
  email: string;
  accountName: string;
  role?: PersonRole;
  flash?: Flash | null;
  account: Account;
  figures: UsageFigures;
}) {
  const f = props.figures;
  const { avatar, video } = props.account.limits as {
    avatar: Record<string, number>;
    video: Record<string, number> | null;
  };
  return (
    <Page
      title="Usage"
      nav="usage"
      csrf={props.csrf}
      email={props.email}
      accountName={props.accountName}
      role={props.role}
      flash={props.flash}
    >
      <div class="figures">
        <div class="figure">
          <div class="n">{f.avatarUnits - f.reservedAvatarUnits}</div>
          <div>Avatar Creations left</div>
        </div>
        <div class="figure">
          <div class="n">{f.reservedAvatarUnits}</div>
          <div>Avatar Creations reserved</div>
          <p class="hint">Held by Avatar jobs still running.</p>
        </div>
        <div class="figure">
          <div class="n">{f.avatarCreations24h}</div>
          <div>Avatar creations, last 24 h</div>
        </div>
        <div class="figure">
          <div class="n">{f.videoCreations24h}</div>
          <div>Video creations, last 24 h</div>
        </div>
      </div>
      <section class="panel">
        <h2>Limits</h2>
        <p class="hint">Per account, shared by every App and by this console.</p>
        <table>
          <thead>
            <tr>
              <th>Limit</th>
              <th>Avatars</th>
              <th>Videos</th>
            </tr>
          </thead>
          <tbody>
            {LIMIT_ROWS.map((row) => (
              <tr>
                <td>{row.label}</td>
                <td>{avatar[row.key] ?? "—"}</td>
                <td>
                  {row.key === "concurrent"
                    ? "managed by the video service"
                    : video
                      ? (video[row.key] ?? "—")
                      : "no video access"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section class="panel">
        <h2>Access</h2>
        <table>
          <tbody>
            <tr>
              <td>Open API access</td>
              <td>{onOff(props.account.openApiAccess)}</td>
            </tr>
            <tr>
              <td>Avatar creation</td>
              <td>{onOff(props.account.avatarCreationEnabled)}</td>
            </tr>
            <tr>
              <td>Video access</td>
              <td>{onOff(props.account.videoAccess)}</td>
            </tr>
            <tr>
              <td>Video creation</td>
              <td>{onOff(props.account.videoCreationEnabled)}</td>
            </tr>
          </tbody>
        </table>
      </section>
    </Page>
  );
}
