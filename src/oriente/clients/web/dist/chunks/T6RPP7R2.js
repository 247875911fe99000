import{b as _,d as w,e as p,f as g,i as k,o as a,p as b,q as S,v as l,w as u}from"./TVP2CMA4.js";var c=w.bind(_),y="oriente.session";function N(t){let n=localStorage.getItem(y);n&&t.request({t:"sign_in",token:n}).then(s=>b({type:"account",account:s.account})).catch(s=>{s&&String(s.code||"").startsWith("auth/")&&(s.code==="auth/session_expired"&&u(l(s)),h())})}function h(){localStorage.removeItem(y),b({type:"account",account:null})}function P(t){t.onFrame(n=>{n.t==="error"&&n.code==="auth/session_ended"&&a.account&&(u(l(n)),h())})}async function x(t,n,s){try{let r=await a.net.request({t,name:n.trim(),password:s});return localStorage.setItem(y,r.token),b({type:"account",account:r.account}),S(r.account.name),!0}catch(r){return u(l(r)),!1}}async function C(){try{await a.net.request({t:"sign_out"})}catch{}h()}function q(t){if(!t)return"";let n=[[/Edg\/(\d+)/,"Edge"],[/Firefox\/(\d+)/,"Firefox"],[/Chrome\/(\d+)/,"Chrome"],[/Version\/(\d+)[^ ]* .*Safari/,"Safari"]].find(([i])=>i.test(t));if(!n||!t.startsWith("Mozilla/"))return t.length>60?`${t.slice(0,57)}…`:t;let s=[[/Android/,"Android"],[/iPhone|iPad/,"iOS"],[/Windows/,"Windows"],[/Mac OS X/,"macOS"],[/CrOS/,"ChromeOS"],[/Linux/,"Linux"]].find(([i])=>i.test(t)),r=`${n[1]} ${t.match(n[0])[1]}`;return s?`${r} · ${s[1]}`:r}var f=t=>new Date(t*1e3).toLocaleString(a.lang,{dateStyle:"medium",timeStyle:"short"});function O(){let t=a.t,[n,s]=p(null),r=()=>a.net.request({t:"sessions"}).then(e=>s(e.sessions)).catch(e=>{u(l(e)),s([])});g(()=>{a.up&&r()},[a.up]);let i=async e=>{try{await a.net.request({t:"revoke_token",token_id:e})}catch(v){u(l(v))}r()},d=async()=>{try{let e=await a.net.request({t:"sign_out_everywhere"});u(t("account.signed_out_everywhere",{n:e.ended})),h()}catch(e){u(l(e))}},o=e=>e||t("account.unknown_place"),$=n&&n.find(e=>e.current),m=$?Math.round(($.expires_at-$.last_used_at)/86400):30;return c`<section class="sessions" aria-label=${t("account.sessions_title")}>
    <h3>${t("account.sessions_title")}</h3>
    <p class="small muted">${t("account.sessions_note",{n:m})}</p>
    ${n===null?c`<p class="muted">…</p>`:c`<ul data-ready="1">${n.map(e=>c`<li key=${e.id} class=${e.current?"session current":"session"}>
      <span>${t("account.session_began",{client:q(e.client)||t("account.unknown_client"),when:f(e.created_at),address:o(e.address)})}</span>
      ${e.current&&c` <span class="tag">${t("account.this_browser")}</span>`}
      <br /><span class="small muted">${t("account.session_last",{when:f(e.last_used_at),address:o(e.last_address),ends:f(e.expires_at)})}</span>
      ${!e.current&&c` <button type="button" class="end-session" onClick=${()=>i(e.id)}>${t("account.session_end")}</button>`}
    </li>`)}</ul>`}
    <button type="button" id="sign-out-everywhere" onClick=${d}>${t("account.sign_out_everywhere")}</button>
  </section>`}function W(){let t=a.t,n=a.name||"",[s,r]=p(""),[i,d]=p(!1),[o,$]=p(!1);if(a.account)return c`<div class="account" data-signed-in="1">
      <span>${t("account.signed_in",{name:a.account.name})}</span>
      <${E} account=${a.account} />
      <a href=${"#/leaderboard"}>${t("account.leaderboard")}</a>
      ${!a.account.bot&&c`<button type="button" id="sessions" aria-expanded=${o} onClick=${()=>$(!o)}>${t("account.sessions")}</button>`}
      <button type="button" id="sign-out" onClick=${C}>${t("account.sign_out")}</button>
      ${o&&!a.account.bot&&c`<${O} />`}</div>`;let m=async e=>{d(!0),await x(e,n,s)&&r(""),d(!1)};return c`<form class="account" aria-label=${t("account.title")} onSubmit=${e=>{e.preventDefault(),m("sign_in")}}>
    <label class="field">${t("account.password")}<input id="account-password" type="password" maxlength="128"
      autocomplete="current-password" value=${s} onInput=${e=>r(e.target.value)} /></label>
    <button type="submit" id="sign-in" class="primary" disabled=${i||!a.up||!n.trim()}>${t("account.sign_in")}</button>
    <button type="button" id="sign-up" disabled=${i||!a.up||!n.trim()} onClick=${()=>m("sign_up")}>${t("account.sign_up")}</button>
    <a href="#/leaderboard">${t("account.leaderboard")}</a>
    <span class="small muted">${t("account.why")}</span>
  </form>`}function E({account:t}){if(!t)return null;let n=a.t,s=t.reputation||{kept:0,broken:0,released:0};return c`<span class="acct">
    ${t.bot&&c`<span class="badge bot" title=${n("account.bot_aria")}>${n("account.bot")}</span>`}
    <span class="badge rep" title=${n("account.reputation_aria",s)}>✓${s.kept} ✗${s.broken}</span></span>`}function B({game:t}){let n=a.t,s=a.net&&a.net.welcome&&a.net.welcome.games||[k],r=s.includes(t)?t:s[0],[i,d]=p(null);return g(()=>{a.up&&(d(null),a.net.request({t:"leaderboard",game:r,limit:100}).then(o=>d(o.leaderboard)).catch(o=>{u(l(o)),d([])}))},[r,a.up]),c`<main class="page leaderboard">
    <h1>${n("account.leaderboard")}</h1>
    <p>${s.map(o=>c`<a key=${o} class=${`button${o===r?" primary":""}`} href=${`#/leaderboard/${o}`}>${n(`game.${o}`)}</a> `)}</p>
    ${i===null?c`<p class="muted">…</p>`:i.length===0?c`<p class="muted" data-ready="1">${n("account.no_ratings")}</p>`:c`<table class="board" data-ready="1"><thead><tr><th>#</th><th>${n("account.name")}</th><th>${n("account.rating")}</th>
          <th>${n("account.games")}</th></tr></thead><tbody>
        ${i.map(o=>c`<tr key=${o.id}><td>${o.rank}</td><td>${o.name} ${o.bot&&c`<span class="badge bot">${n("account.bot")}</span>`}</td>
          <td>${o.rating.toFixed(1)}${o.provisional?"?":""}</td><td>${o.games}</td></tr>`)}</tbody></table>`}
    <p class="small muted">${n("account.rating_note")}</p>
  </main>`}export{N as a,P as b,W as c,E as d,B as e};
