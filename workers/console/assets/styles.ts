/** The console's stylesheet (served at /console/assets/console.css; no inline styles, so the CSP can forbid them). */
export const CONSOLE_CSS = `
:root{--fg:#1b1f24;--muted:#5b6470;--line:#d9dee4;--bg:#f6f7f9;--card:#fff;--accent:#2456d6;--accent-fg:#fff;--bad:#b42318;--good:#067647;--warn:#9a6700;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
*{box-sizing:border-box}body{margin:0;line-height:1.45}
a{color:var(--accent)}:focus-visible{outline:3px solid #7aa2ff;outline-offset:2px}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.6rem 1.25rem;background:var(--card);border-bottom:1px solid var(--line)}
.brand{display:flex;gap:.6rem;align-items:baseline;margin:0}.brand .account{color:var(--muted);font-size:.9rem;max-width:16rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:0;padding:0}
nav a{display:block;padding:.35rem .7rem;border-radius:6px;text-decoration:none;color:var(--fg)}
nav a[aria-current=page]{background:#e8eefc;color:var(--accent);font-weight:600}
.sign-out{margin-left:auto}
main{max-width:72rem;margin:0 auto;padding:1.25rem}
h1{font-size:1.6rem;margin:.2rem 0 1rem}h2{font-size:1.15rem;margin:0 0 .75rem}
section.panel{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;margin-bottom:1.25rem}
label,.label{font-weight:600;display:block;margin:.6rem 0 .25rem}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=number],select{width:100%;max-width:28rem;padding:.5rem .6rem;border:1px solid #b8c0ca;border-radius:6px;font:inherit;background:#fff}
input[type=color]{width:4rem;height:2.3rem;padding:.1rem;border:1px solid #b8c0ca;border-radius:6px}
input[type=file]{font:inherit;max-width:100%}
button,.button{display:inline-block;margin-top:.8rem;padding:.5rem 1rem;border:1px solid var(--accent);border-radius:6px;background:var(--accent);color:var(--accent-fg);font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}button.danger{background:#fff;color:var(--bad);border-color:var(--bad)}
header.top button{margin-top:0}
button[disabled]{opacity:.5;cursor:not-allowed}
.hint{color:var(--muted);font-size:.9rem;margin:.25rem 0}
.flash{padding:.6rem .9rem;border-radius:8px;border:1px solid}.flash.notice{background:#ecfdf3;border-color:#abefc6;color:var(--good)}.flash.error{background:#fef3f2;border-color:#fecdca;color:var(--bad)}
.blocked{padding:.5rem .8rem;border-radius:8px;background:#fffaeb;border:1px solid #fedf89;color:var(--warn)}
.card-page{display:flex;justify-content:center;padding-top:8vh}.card{width:100%;max-width:26rem;background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1.5rem}
.card input{max-width:none}.stack button{width:100%}.narrow{max-width:28rem}.narrow button{width:auto}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:1rem}
.tile{text-decoration:none;color:inherit;background:var(--card);border:1px solid var(--line);border-radius:10px;overflow:hidden;display:flex;flex-direction:column}
.tile img{width:100%;aspect-ratio:1;object-fit:cover;background:#e9ecf0;display:block}
.tile .meta{padding:.6rem .75rem}.tile .name{font-weight:600;word-break:break-word;color:var(--accent)}
.badge{display:inline-block;font-size:.75rem;font-weight:600;padding:.1rem .45rem;border-radius:999px;background:#eef2f6;color:var(--muted)}
.badge.console{background:#e8eefc;color:var(--accent)}
.status{font-weight:600}.status.failed,.status.expired{color:var(--bad)}.status.succeeded{color:var(--good)}.status.queued,.status.processing{color:var(--warn)}
.dropzone{border:2px dashed #b8c0ca;border-radius:10px;padding:1rem;background:#fafbfc}.dropzone.over{border-color:var(--accent);background:#eef3ff}
.jobs{list-style:none;margin:0;padding:0}.jobs>li{border-top:1px solid var(--line);padding:.75rem 0}.jobs>li:first-child{border-top:0}
.job-head{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline}.job-head .name{font-weight:600;word-break:break-word}
.error-box{margin:.4rem 0 0;padding:.5rem .75rem;background:#fef3f2;border-radius:8px;color:#7a271a;font-size:.92rem}
video{width:100%;max-width:40rem;background:#000;border-radius:8px;margin-top:.5rem;display:block}
.avatar-large{display:grid;grid-template-columns:minmax(0,22rem) 1fr;gap:1.5rem}.avatar-large img.cover{width:100%;border-radius:10px;background:#e9ecf0}
.table-wrap{overflow-x:auto}
.settings{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:0 1rem;border:1px solid var(--line);border-radius:8px;padding:.25rem 1rem 1rem;margin:1rem 0 0}
.settings legend{font-weight:600;padding:0 .3rem}
.switch{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem;margin-top:.9rem}.switch input{width:auto;margin:0}.switch label{margin:0;flex:1 1 0;min-width:0}.switch .hint{flex-basis:100%;margin:0}
.cutout{width:100%;max-width:32rem;height:auto;aspect-ratio:16/9;border-radius:8px;border:1px solid var(--line);display:block;margin-bottom:.75rem}
progress{width:100%;max-width:28rem;height:1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--muted);font-weight:600;font-size:.9rem}
.secret{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.secret code{padding:.4rem .6rem;background:#f1f3f6;border-radius:6px;word-break:break-all;font-size:.95rem}.secret button{margin-top:0}
.inline-form{display:inline}.row-actions{display:flex;flex-wrap:wrap;gap:.5rem}.row-actions button{margin-top:0}
.figures{margin-bottom:1.25rem;display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:1rem}.figure{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.8rem 1rem}.figure .n{font-size:1.8rem;font-weight:700}
@media (max-width:640px){main{padding:.9rem}header.top{padding:.6rem .9rem}.sign-out{margin-left:0}.avatar-large{grid-template-columns:minmax(0,1fr)}.grid{grid-template-columns:repeat(2,minmax(0,1fr))}.hide-narrow{display:none}th,td{padding:.4rem .3rem}.stack-narrow thead{display:none}.stack-narrow tr,.stack-narrow td{display:block}.stack-narrow tr{border-bottom:1px solid var(--line);padding:.4rem 0}.stack-narrow td{border:0;padding:.15rem 0}.stack-narrow code{word-break:break-all}}
.portrait-preview:not([hidden]){display:block;max-width:220px;max-height:220px;margin-top:.6rem;border-radius:8px;object-fit:cover}
`;
