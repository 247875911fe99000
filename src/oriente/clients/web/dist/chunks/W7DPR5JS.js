import{b as w,d as k,e as m,f,h as S,n as a,o as b,p as v,u as p,v as l}from"./UWPSS356.js";var c=k.bind(w),_="oriente.session";function L(t){let e=localStorage.getItem(_);e&&t.request({t:"sign_in",token:e}).then(s=>b({type:"account",account:s.account})).catch(s=>{s&&String(s.code||"").startsWith("auth/")&&(s.code==="auth/session_expired"&&l(p(s)),h())})}function h(){localStorage.removeItem(_),b({type:"account",account:null})}function P(t){t.onFrame(e=>{e.t==="error"&&e.code==="auth/session_ended"&&a.account&&(l(p(e)),h())})}async function x(t,e,s){try{let r=await a.net.request({t,name:e.trim(),password:s});return localStorage.setItem(_,r.token),b({type:"account",account:r.account}),v(r.account.name),!0}catch(r){return l(p(r)),!1}}async function C(){try{await a.net.request({t:"sign_out"})}catch{}h()}function q(t){if(!t)return"";let e=[[/Edg\/(\d+)/,"Edge"],[/Firefox\/(\d+)/,"Firefox"],[/Chrome\/(\d+)/,"Chrome"],[/Version\/(\d+)[^ ]* .*Safari/,"Safari"]].find(([u])=>u.test(t));if(!e||!t.startsWith("Mozilla/"))return t.length>60?`${t.slice(0,57)}…`:t;let s=[[/Android/,"Android"],[/iPhone|iPad/,"iOS"],[/Windows/,"Windows"],[/Mac OS X/,"macOS"],[/CrOS/,"ChromeOS"],[/Linux/,"Linux"]].find(([u])=>u.test(t)),r=`${e[1]} ${t.match(e[0])[1]}`;return s?`${r} · ${s[1]}`:r}var y=t=>new Date(t*1e3).toLocaleString(a.lang,{dateStyle:"medium",timeStyle:"short"});function O(){let t=a.t,[e,s]=m(null),r=()=>a.net.request({t:"sessions"}).then(n=>s(n.sessions)).catch(n=>{l(p(n)),s([])});f(()=>{a.up&&r()},[a.up]);let u=async n=>{try{await a.net.request({t:"revoke_token",token_id:n})}catch(i){l(p(i))}r()},d=async()=>{try{let n=await a.net.request({t:"sign_out_everywhere"});l(t("account.signed_out_everywhere",{n:n.ended})),h()}catch(n){l(p(n))}},o=n=>n||t("account.unknown_place"),$=e&&e.find(n=>n.current),g=$?Math.round(($.expires_at-$.last_used_at)/86400):30;return c`<section class="sessions" aria-label=${t("account.sessions_title")}>
    <h3>${t("account.sessions_title")}</h3>
    <p class="small muted">${t("account.sessions_note",{days:g})}</p>
    ${e===null?c`<p class="muted">…</p>`:c`<ul data-ready="1">${e.map(n=>c`<li key=${n.id} class=${n.current?"session current":"session"}>
      <span>${t("account.session_began",{client:q(n.client)||t("account.unknown_client"),when:y(n.created_at),address:o(n.address)})}</span>
      ${n.current&&c` <span class="tag">${t("account.this_browser")}</span>`}
      <br /><span class="small muted">${t("account.session_last",{when:y(n.last_used_at),address:o(n.last_address),ends:y(n.expires_at)})}</span>
      ${!n.current&&c` <button type="button" class="end-session" onClick=${()=>u(n.id)}>${t("account.session_end")}</button>`}
    </li>`)}</ul>`}
    <button type="button" id="sign-out-everywhere" onClick=${d}>${t("account.sign_out_everywhere")}</button>
  </section>`}function W(){let t=a.t,[e,s]=m(""),[r,u]=m(""),[d,o]=m(!1),[$,g]=m(!1);if(a.account)return c`<div class="account" data-signed-in="1">
      <span>${t("account.signed_in",{name:a.account.name})}</span>
      <${E} account=${a.account} />
      <a href=${"#/leaderboard"}>${t("account.leaderboard")}</a>
      ${!a.account.bot&&c`<button type="button" id="sessions" aria-expanded=${$} onClick=${()=>g(!$)}>${t("account.sessions")}</button>`}
      <button type="button" id="sign-out" onClick=${C}>${t("account.sign_out")}</button>
      ${$&&!a.account.bot&&c`<${O} />`}</div>`;let n=async i=>{o(!0),await x(i,e,r)&&u(""),o(!1)};return c`<form class="account" aria-label=${t("account.title")} onSubmit=${i=>{i.preventDefault(),n("sign_in")}}>
    <label class="field">${t("account.name")}<input id="account-name" maxlength="24" autocomplete="username"
      value=${e} onInput=${i=>s(i.target.value)} /></label>
    <label class="field">${t("account.password")}<input id="account-password" type="password" maxlength="128"
      autocomplete="current-password" value=${r} onInput=${i=>u(i.target.value)} /></label>
    <button type="submit" id="sign-in" class="primary" disabled=${d||!a.up}>${t("account.sign_in")}</button>
    <button type="button" id="sign-up" disabled=${d||!a.up} onClick=${()=>n("sign_up")}>${t("account.sign_up")}</button>
    <a href="#/leaderboard">${t("account.leaderboard")}</a>
    <span class="small muted">${t("account.why")}</span>
  </form>`}function E({account:t}){if(!t)return null;let e=a.t,s=t.reputation||{kept:0,broken:0,released:0};return c`<span class="acct">
    ${t.bot&&c`<span class="badge bot" title=${e("account.bot_aria")}>${e("account.bot")}</span>`}
    <span class="badge rep" title=${e("account.reputation_aria",s)}>✓${s.kept} ✗${s.broken}</span></span>`}function B({game:t}){let e=a.t,s=a.net&&a.net.welcome&&a.net.welcome.games||[S],r=s.includes(t)?t:s[0],[u,d]=m(null);return f(()=>{a.up&&(d(null),a.net.request({t:"leaderboard",game:r,limit:100}).then(o=>d(o.leaderboard)).catch(o=>{l(p(o)),d([])}))},[r,a.up]),c`<main class="page leaderboard">
    <h1>${e("account.leaderboard")}</h1>
    <p>${s.map(o=>c`<a key=${o} class=${`button${o===r?" primary":""}`} href=${`#/leaderboard/${o}`}>${e(`game.${o}`)}</a> `)}</p>
    ${u===null?c`<p class="muted">…</p>`:u.length===0?c`<p class="muted" data-ready="1">${e("account.no_ratings")}</p>`:c`<table class="board" data-ready="1"><thead><tr><th>#</th><th>${e("account.name")}</th><th>${e("account.rating")}</th>
          <th>${e("account.games")}</th></tr></thead><tbody>
        ${u.map(o=>c`<tr key=${o.id}><td>${o.rank}</td><td>${o.name} ${o.bot&&c`<span class="badge bot">${e("account.bot")}</span>`}</td>
          <td>${o.rating.toFixed(1)}${o.provisional?"?":""}</td><td>${o.games}</td></tr>`)}</tbody></table>`}
    <p class="small muted">${e("account.rating_note")}</p>
  </main>`}export{L as a,P as b,W as c,E as d,B as e};
