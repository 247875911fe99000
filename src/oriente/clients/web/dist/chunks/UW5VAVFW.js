import{b as _,d as w,e as $,f,i as k,o as a,p as b,q as v,v as m,w as l}from"./VERQYIVV.js";var i=w.bind(_),g="oriente.session";function L(t){let e=localStorage.getItem(g);e&&t.request({t:"sign_in",token:e}).then(s=>b({type:"account",account:{...s.account,email:s.email||null}})).catch(s=>{s&&String(s.code||"").startsWith("auth/")&&(s.code==="auth/session_expired"&&l(m(s)),h())})}function h(){localStorage.removeItem(g),b({type:"account",account:null})}function N(t){t.onFrame(e=>{e.t==="error"&&e.code==="auth/session_ended"&&a.account&&(l(m(e)),h())})}async function x(t,e,s){try{let c=await a.net.request({t,name:e.trim(),password:s});return localStorage.setItem(g,c.token),b({type:"account",account:{...c.account,email:c.email||null}}),v(c.account.name),!0}catch(c){return l(m(c)),!1}}async function C(){try{await a.net.request({t:"sign_out"})}catch{}h()}function q(t){if(!t)return"";let e=[[/Edg\/(\d+)/,"Edge"],[/Firefox\/(\d+)/,"Firefox"],[/Chrome\/(\d+)/,"Chrome"],[/Version\/(\d+)[^ ]* .*Safari/,"Safari"]].find(([r])=>r.test(t));if(!e||!t.startsWith("Mozilla/"))return t.length>60?`${t.slice(0,57)}…`:t;let s=[[/Android/,"Android"],[/iPhone|iPad/,"iOS"],[/Windows/,"Windows"],[/Mac OS X/,"macOS"],[/CrOS/,"ChromeOS"],[/Linux/,"Linux"]].find(([r])=>r.test(t)),c=`${e[1]} ${t.match(e[0])[1]}`;return s?`${c} · ${s[1]}`:c}var y=t=>new Date(t*1e3).toLocaleString(a.lang,{dateStyle:"medium",timeStyle:"short"});function E(){let t=a.t,[e,s]=$(null),c=()=>a.net.request({t:"sessions"}).then(n=>s(n.sessions)).catch(n=>{l(m(n)),s([])});f(()=>{a.up&&c()},[a.up]);let r=async n=>{try{await a.net.request({t:"revoke_token",token_id:n})}catch(S){l(m(S))}c()},u=async()=>{try{let n=await a.net.request({t:"sign_out_everywhere"});l(t("account.signed_out_everywhere",{n:n.ended})),h()}catch(n){l(m(n))}},o=n=>n||t("account.unknown_place"),p=e&&e.find(n=>n.current),d=p?Math.round((p.expires_at-p.last_used_at)/86400):30;return i`<section class="sessions" aria-label=${t("account.sessions_title")}>
    <h3>${t("account.sessions_title")}</h3>
    <p class="small muted">${t("account.sessions_note",{n:d})}</p>
    ${e===null?i`<p class="muted">…</p>`:i`<ul data-ready="1">${e.map(n=>i`<li key=${n.id} class=${n.current?"session current":"session"}>
      <span>${t("account.session_began",{client:q(n.client)||t("account.unknown_client"),when:y(n.created_at),address:o(n.address)})}</span>
      ${n.current&&i` <span class="tag">${t("account.this_browser")}</span>`}
      <br /><span class="small muted">${t("account.session_last",{when:y(n.last_used_at),address:o(n.last_address),ends:y(n.expires_at)})}</span>
      ${!n.current&&i` <button type="button" class="end-session" onClick=${()=>r(n.id)}>${t("account.session_end")}</button>`}
    </li>`)}</ul>`}
    <button type="button" id="sign-out-everywhere" onClick=${u}>${t("account.sign_out_everywhere")}</button>
  </section>`}function O(){let t=a.t,e=a.account.email,[s,c]=$(e?e.address:""),[r,u]=$(!1),o=async d=>{u(!0);try{let n=await a.net.request({t:"set_email",address:d});b({type:"account",account:{...a.account,email:n.email}}),l(n.email?t("email.sent",{address:n.email.address}):t("email.removed"))}catch(n){l(m(n))}u(!1)},p=e?e.confirmed?e.notify?"confirmed":"unsubscribed":"unconfirmed":"none";return i`<section class="email" aria-label=${t("email.title")}>
    <h3>${t("email.title")}</h3>
    <p class="small muted" id="email-state" data-state=${p}>${t(`email.state.${p}`,{address:e?e.address:""})}</p>
    <form onSubmit=${d=>{d.preventDefault(),o(s.trim())}}>
      <label class="field">${t("email.address")}<input id="email-address" type="email" maxlength="254" autocomplete="email"
        value=${s} onInput=${d=>c(d.target.value)} /></label>
      <button type="submit" id="email-save" disabled=${r||!a.up||!s.trim()}>${t("email.save")}</button>
      ${e&&i` <button type="button" id="email-remove" disabled=${r||!a.up} onClick=${()=>{c(""),o("")}}>${t("email.remove")}</button>`}
    </form>
    <p class="small muted">${t("email.note")}</p>
  </section>`}function P(){let t=a.t,e=a.name||"",[s,c]=$(""),[r,u]=$(!1),[o,p]=$(!1);if(a.account)return i`<div class="account" data-signed-in="1">
      <span>${t("account.signed_in",{name:a.account.name})}</span>
      <${A} account=${a.account} />
      <a href=${"#/leaderboard"}>${t("account.leaderboard")}</a>
      ${!a.account.bot&&i`<button type="button" id="sessions" aria-expanded=${o} onClick=${()=>p(!o)}>${t("account.sessions")}</button>`}
      <button type="button" id="sign-out" onClick=${C}>${t("account.sign_out")}</button>
      ${o&&!a.account.bot&&i`<${O} /><${E} />`}</div>`;let d=async n=>{u(!0),await x(n,e,s)&&c(""),u(!1)};return i`<form class="account" aria-label=${t("account.title")} onSubmit=${n=>{n.preventDefault(),d("sign_in")}}>
    <label class="field">${t("account.password")}<input id="account-password" type="password" maxlength="128"
      autocomplete="current-password" value=${s} onInput=${n=>c(n.target.value)} /></label>
    <button type="submit" id="sign-in" class="primary" disabled=${r||!a.up||!e.trim()}>${t("account.sign_in")}</button>
    <button type="button" id="sign-up" disabled=${r||!a.up||!e.trim()} onClick=${()=>d("sign_up")}>${t("account.sign_up")}</button>
    <a href="#/leaderboard">${t("account.leaderboard")}</a>
    <span class="small muted">${t("account.why")}</span>
  </form>`}function A({account:t}){if(!t)return null;let e=a.t,s=t.reputation||{kept:0,broken:0,released:0};return i`<span class="acct">
    ${t.bot&&i`<span class="badge bot" title=${e("account.bot_aria")}>${e("account.bot")}</span>`}
    <span class="badge rep" title=${e("account.reputation_aria",s)}>✓${s.kept} ✗${s.broken}</span></span>`}function W({game:t}){let e=a.t,s=a.net&&a.net.welcome&&a.net.welcome.games||[k],c=s.includes(t)?t:s[0],[r,u]=$(null);return f(()=>{a.up&&(u(null),a.net.request({t:"leaderboard",game:c,limit:100}).then(o=>u(o.leaderboard)).catch(o=>{l(m(o)),u([])}))},[c,a.up]),i`<main class="page leaderboard">
    <h1>${e("account.leaderboard")}</h1>
    <p>${s.map(o=>i`<a key=${o} class=${`button${o===c?" primary":""}`} href=${`#/leaderboard/${o}`}>${e(`game.${o}`)}</a> `)}</p>
    ${r===null?i`<p class="muted">…</p>`:r.length===0?i`<p class="muted" data-ready="1">${e("account.no_ratings")}</p>`:i`<table class="board" data-ready="1"><thead><tr><th>#</th><th>${e("account.name")}</th><th>${e("account.rating")}</th>
          <th>${e("account.games")}</th></tr></thead><tbody>
        ${r.map(o=>i`<tr key=${o.id}><td>${o.rank}</td><td>${o.name} ${o.bot&&i`<span class="badge bot">${e("account.bot")}</span>`}</td>
          <td>${o.rating.toFixed(1)}${o.provisional?"?":""}</td><td>${o.games}</td></tr>`)}</tbody></table>`}
    <p class="small muted">${e("account.rating_note")}</p>
  </main>`}export{L as a,N as b,P as c,A as d,W as e};
