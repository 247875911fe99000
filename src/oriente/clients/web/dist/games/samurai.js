import{a as me,b as de,c as $e}from"../chunks/UAOYVOUN.js";import{C as oe,D as ce,E as M,F as U,G as q,Y as ue,_ as V,b as ne,d as ie,e as O,ea as pe,f as re,l as le,m as H,o as b,p as P}from"../chunks/5RXS4CKG.js";function W(s){let e="ABCDEFGHIJKLMNOPQRSTUVWXYZ";return s<26?e[s]:e[Math.floor(s/26)-1]+e[s%26]}function B(s){let e=i=>i.q+(i.r-(i.r&1))/2,t=Math.min(...s.map(e)),n=Math.min(...s.map(i=>i.r));return new Map(s.map(i=>[i.id,[i.r-n,e(i)-t]]))}function he(s){return new Map([...B(s)].map(([e,[t,n]])=>[e,`${W(t)}${n+1}`]))}var fe=s=>s.slice(0,1).toUpperCase()+s.slice(1),ge=s=>s.length>0&&s.every(e=>e!=null),A=class extends ce{constructor(e,t,n,i,l=null){super(e,t,l),this.names=new Map(n.hexes.filter(c=>c.name).map(c=>[c.id,c.name])),this.villages=new Set(n.hexes.filter(c=>c.terrain==="village").map(c=>c.id)),this.squares=he(n.hexes),this.tiles=i.tiles}hex(e){let t=this.squares.get(e);return t===void 0?this.t("sam.hex",{id:e}):this.names.has(e)?this.t("sam.hex_named",{name:this.names.get(e),square:t}):this.t(this.villages.has(e)?"sam.hex_village":"sam.hex_square",{square:t})}figure(e){return this.t(`sam.figure.${e}`)}kind(e,t){let n=this.t(`sam.kind.${e}`);return t==null||e==="figure_swap"||e==="tile_swap"?n:this.t("sam.tile",{kind:n,strength:t})}tile(e){if(e==null)return this.t("sam.tile_hidden");let t=this.tiles[e];return this.kind(t.kind,t.strength)}tileList(e){return this.list(e.map(t=>this.tile(t)))}byTable(e,t){return t+(e.by_table?this.t("sam.by_table"):"")+"."}narrate(e,t=null){if(oe.has(e.type))return this.tableEvent(e);let n=this[`s_${e.type}`];if(typeof n!="function")return this.fallback(e);let i;try{i=n.call(this,e,t)}catch{return this.fallback(e)}return i.split(`
`).map(fe).join(`
`)}s_GameStarted(e){return this.t("sam.GameStarted",{n:e.seats,board:e.board,figures:e.figures_per_kind,first:this.seat(e.first)})}s_SelectionBegan(){return this.t("sam.SelectionBegan")}s_TilesChosen(e){let t=e.tiles||[];return ge(t)?this.byTable(e,this.t("sam.TilesChosen",{seat:this.seat(e.seat),tiles:this.tileList(t)})):this.byTable(e,this.t("sam.TilesChosen.hidden",{seat:this.seat(e.seat)}))}s_SelectionDone(e){return this.t("sam.SelectionDone",{n:(e.supply_sizes||[0])[0]})}s_CapitalFilled(e){return this.t("sam.CapitalFilled",{hex:this.hex(e.hex),figures:this.list(e.figures.map(t=>this.figure(t)))})}s_FigurePlaced(e){return this.byTable(e,this.t("sam.FigurePlaced",{seat:this.seat(e.seat),figure:this.figure(e.figure),hex:this.hex(e.hex)}))}s_TurnBegan(e){return this.t("sam.TurnBegan",{turn:e.turn,seat:this.seat(e.seat)})}s_TilePlaced(e){return this.byTable(e,this.t("sam.TilePlaced",{seat:this.seat(e.seat),tile:this.kind(e.kind,e.strength),hex:this.hex(e.hex)}))}s_FiguresSwapped(e){return this.byTable(e,this.t("sam.FiguresSwapped",{seat:this.seat(e.seat),a:this.figure(e.figure_a),hex_a:this.hex(e.hex_a),b:this.figure(e.figure_b),hex_b:this.hex(e.hex_b)}))}s_TileSwapped(e){return this.byTable(e,this.t("sam.TileSwapped",{seat:this.seat(e.seat),hex:this.hex(e.hex),moved:this.tile(e.moved),to:this.hex(e.to)}))}s_TurnEnded(){return""}s_TurnPassed(e){return this.byTable(e,this.t("sam.TurnPassed",{seat:this.seat(e.seat)}))}s_FigureCaptured(e){let t={figure:this.figure(e.figure),hex:this.hex(e.hex)};return e.seat===null||e.seat===void 0?this.t("sam.FigureCaptured.aside",t):this.t("sam.FigureCaptured",{seat:this.seat(e.seat),...t})}s_TilesDrawn(e){let t=e.tiles||[],n=this.seat(e.seat),i=e.supply_left;return ge(t)?this.t("sam.TilesDrawn",{seat:n,tiles:this.tileList(t),left:i}):this.plural("sam.TilesDrawn.hidden",t.length,{seat:n,left:i})}s_GameEnded(e){let t=this.t(`sam.GameEnded.${e.reason}`),n=e.winners||[],i=n.length?this.t("sam.GameEnded.winners",{winners:fe(this.list(n.map(l=>this.seat(l))))}):this.t("sam.GameEnded.nobody");return`${t}
${i}`}};var o=ie.bind(ne),C=["helmet","buddha","rice"],ke={helmet:"H",buddha:"B",rice:"R"},we={helmet:"H",buddha:"B",rice:"R",samurai:"S",ronin:"Ro",ship:"Sh",figure_swap:"⇄F",tile_swap:"⇄T"},J=["EndTurn","Pass"],Z=60,be=12,y=3.2,a=(s,e)=>b.t(s,e);function _(s,e){return ue(s).hex(e)}var g=s=>a(`sam.fig.${s}`),Y=s=>a(`sam.kind.${s}`);function j(s,e){let t=s.tile_set.tiles[e];if(!t)return String(e);let n=t.strength===null||t.kind==="figure_swap"||t.kind==="tile_swap"?Y(t.kind):`${Y(t.kind)} ${t.strength}`;return t.fast?`${n} ✦`:n}function ye(s,e,t){switch(t.type){case"ChooseTiles":return a("sam.choice.ChooseTiles",{tiles:t.tiles.map(n=>j(e,n)).join(", ")});case"PlaceFigure":return a("sam.choice.PlaceFigure",{figure:g(t.figure),hex:_(s,t.hex)});case"PlaceTile":return a("sam.choice.PlaceTile",{tile:j(e,t.tile),hex:_(s,t.hex)});case"SwapFigures":return a("sam.choice.SwapFigures",{a:g(t.figure_a),hex_a:_(s,t.hex_a),b:g(t.figure_b),hex_b:_(s,t.hex_b)});case"SwapTile":{let n=e.tiles.find(i=>i.hex===t.hex);return a("sam.choice.SwapTile",{hex:_(s,t.hex),moved:n?j(e,n.tile):"?",to:_(s,t.to)})}case"EndTurn":return a("sam.choice.EndTurn");case"Pass":return a("sam.choice.Pass");default:return t.type}}var F=s=>[s.hex,s.to,s.hex_a,s.hex_b].filter(e=>e!==void 0);function ve(s){let e=s.prompt;if(!e||!s.seated||e.pivot!==s.you)return[];let t=(e.legal||[]).filter(i=>i.decision===e.id),n=i=>{let l=J.indexOf(i.type);return l<0?J.length:l};return t.map((i,l)=>[i,l]).sort((i,l)=>n(i[0])-n(l[0])||i[1]-l[1]).map(([i])=>i)}function Ie(s){let e=s.prompt;return!!(e&&e.topic==="select"&&s.seated&&e.choose&&(e.asked||[]).includes(s.you)&&!(e.final||[]).includes(s.you))}var xe=44/(Math.sqrt(3)*y);function Le(s){return[y*Math.sqrt(3)*(s.q+s.r/2),y*1.5*s.r]}function Ke(s,e){return[0,1,2,3,4,5].map(t=>{let n=Math.PI/180*(60*t-30);return`${(s+y*Math.cos(n)).toFixed(2)},${(e+y*Math.sin(n)).toFixed(2)}`}).join(" ")}function ze(s,e,t){return t===0?[]:t===1?[[s,e-.4]]:t===2?[[s-1.1,e-.4],[s+1.1,e-.4]]:[[s-1.1,e-1.1],[s+1.1,e-1.1],[s,e+.7]]}function _e(s,e,t,n,i){return[_(s,t.id),a(`sam.terrain.${t.terrain}`),n.length?n.map(g).join(", "):"",i?a("sam.tile_of",{tile:j(e,i.tile),name:M(s,i.seat)}):""].filter(Boolean).join(" — ")}function Oe({ts:s,view:e,selected:t,onSelect:n}){let[i,l]=me("samurai"),[c,p]=O(null),u=e.board.hexes,$=u.map(Le),h=$.map(r=>r[0]),k=$.map(r=>r[1]),[w,R,T,d]=[Math.min(...h)-y-3,Math.max(...h)+y+1,Math.min(...k)-y-3,Math.max(...k)+y+1],v=new Set(ve(s).flatMap(F)),Q=new Map(e.figures.map(r=>[r.hex,r.figures])),X=new Map(e.tiles.map(r=>[r.hex,r])),G=u.map((r,m)=>[r.id,$[m][0],$[m][1]]).filter(r=>v.has(r[0])),je=v.has(t)?t:G.length?G[0][0]:null;re(()=>{let r=t===null?null:document.querySelector(`.sam-map [data-hex="${t}"]`);r&&r.scrollIntoView&&r.scrollIntoView({block:"nearest",inline:"nearest"})},[t]);let Re=r=>{let m=document.querySelector(`.sam-map [data-hex="${r}"]`);m&&m.focus()},Ne=(r,m)=>{if(r.key==="Enter"||r.key===" ")r.preventDefault(),n(t===m?null:m);else if(r.key.startsWith("Arrow")){let f=$e(G,m,r.key);r.preventDefault(),f!==null&&(Re(f),p(f))}},De=(r,m)=>{let[f,S]=$[m],x=X.get(r.id),E=Q.get(r.id)||[],se=_e(s,e,r,E,x),K=v.has(r.id),Ae=`hex ${r.terrain}${x?` tiled s${x.seat}`:""}${K?" open":""}${t===r.id?" selected":""}`,Ge=K?{tabindex:r.id===je?"0":"-1",role:"button","aria-label":se,"aria-pressed":t===r.id?"true":"false",onKeyDown:D=>Ne(D,r.id),onFocus:()=>p(r.id)}:{};return o`<g key=${r.id} class=${Ae} data-hex=${r.id} ...${Ge}
        onClick=${()=>{p(r.id),K&&n(t===r.id?null:r.id)}}>
      <title>${se}</title>
      <polygon points=${Ke(f,S)} />
      ${r.terrain==="village"&&!x&&!E.length&&o`<circle cx=${f} cy=${S} r="0.55" class="village-dot" />`}
      ${x&&o`<text x=${f} y=${S+.3} class="tk">${we[x.kind]||"?"}</text>
        <text x=${f} y=${S+2.1} class="ts">${x.strength??""}${e.tile_set.tiles[x.tile]&&e.tile_set.tiles[x.tile].fast?"✦":""}</text>`}
      ${ze(f,S,E.length).map(([D,ae],z)=>o`<g key=${z} class=${`fig ${E[z]}`}>
        <circle cx=${D} cy=${ae} r="1.05" /><text x=${D} y=${ae+.55} class="fk">${ke[E[z]]}</text></g>`)}
    </g>`},qe=(r,m)=>r.name&&o`<text key=${`n${r.id}`} x=${$[m][0]} y=${$[m][1]+y*.98} class="name">${r.name}</text>`,Be=B(u),I=new Map,L=new Map;u.forEach((r,m)=>{let[f,S]=Be.get(r.id);I.has(f)||I.set(f,$[m][1]),!(r.r&1)&&!L.has(S)&&L.set(S,$[m][0])});let ee=R-w,te=d-T,N=c!==null?u.find(r=>r.id===c):null;return o`<figure class="sam-map" aria-label=${a("sam.map")}>
    <${de} zoom=${i} setZoom=${l} label=${a("sam.map")}>
      <svg viewBox=${`${w.toFixed(1)} ${T.toFixed(1)} ${ee.toFixed(1)} ${te.toFixed(1)}`}
          width=${Math.round(ee*xe*i)} height=${Math.round(te*xe*i)} aria-label=${a("sam.map")}>
        <g class="rulers" aria-hidden="true">
          ${[...I].map(([r,m])=>o`<text key=${`r${r}`} x=${w+1.2} y=${m+.6} class="rule">${W(r)}</text>`)}
          ${[...L].map(([r,m])=>o`<text key=${`c${r}`} x=${m} y=${T+1.9} class="rule">${r+1}</text>`)}
        </g>
        ${u.map(De)}
        <g class="names" aria-hidden="true">${u.map(qe)}</g>
      </svg>
    <//>
    <figcaption class="small">
      ${N?o`<span class="hex-told" aria-live="polite">${_e(s,e,N,Q.get(N.id)||[],X.get(N.id))}</span>`:v.size>0?o`<span class="muted">${a("sam.map_hint")}</span>`:""}
    </figcaption>
    <${Se} />
  </figure>`}function Se({open:s=!1}){let e=["helmet","buddha","rice","samurai","ronin","ship","figure_swap","tile_swap"];return o`<details class="legend" open=${s}>
    <summary>${a("map.legend")}</summary>
    <p class="small">${a("sam.legend.squares")}</p>
    <p class="small">${a("sam.legend.tiles")} ${e.map(t=>o`<span key=${t} class="sym"><b>${we[t]}</b> ${Y(t)}</span>`)}</p>
    <p class="small">${a("sam.legend.figures")} ${C.map(t=>o`<span key=${t} class=${`sym fig-sym ${t}`}><b>${ke[t]}</b> ${g(t)}</span>`)}</p>
    <p class="small">${a("sam.legend.fast")}</p>
    <p class="small">${a("sam.legend.terrain")} ${["sea","land","village","city","capital"].map(t=>o`<span key=${t} class=${`sym terrain ${t}`}><i aria-hidden="true"></i> ${a(`sam.terrain.${t}`)}</span>`)}</p>
    <p class="small">${a("sam.legend.open")}</p>
    <p class="small muted">${a("map.keys")}</p>
  </details>`}function Te({view:s,index:e,picked:t=!1,onClick:n=null}){let i=s.tile_set.tiles[e],l=`tile k-${i.kind}${i.fast?" fast":""}${t?" picked":""}`,c=j(s,e);return n?o`<button type="button" class=${l} aria-pressed=${t} title=${c} onClick=${n}>${c}</button>`:o`<span class=${l} title=${c}>${c}</span>`}function He({counts:s}){return s?o`<span class="small">${C.map(e=>`${g(e)} ${s[e]}`).join(" · ")}</span>`:o`<span class="small muted">${a("sam.behind_screen")}</span>`}function Ue({ts:s,view:e}){let t=s.prompt||e.decision;return o`<div class="sam-seats">${e.players.map(n=>{let i=n.seat,l=n.hand.filter(c=>c!==null);return o`<section key=${i} class=${`sam-seat s${i}${i===s.you?" me":""}${t&&t.pivot===i?" pivot":""}`}
        aria-label=${a("seat.aria",{name:M(s,i),n:i})}>
      <header><span class=${`swatch s${i}`} aria-hidden="true"></span><b>${M(s,i)}</b>
        ${t&&t.pivot===i&&s.prompt&&o`<${U} prompt=${s.prompt} at=${s.promptAt} />`}</header>
      <div class="small">${a("sam.hand",{n:n.hand_size})} · ${a("sam.supply",{n:n.supply_size})}</div>
      ${l.length>0&&o`<div class="tiles mine">${l.map(c=>o`<${Te} key=${c} view=${e} index=${c} />`)}</div>`}
      <div><span class="small muted">${a("sam.captured")}</span> <${He} counts=${n.captured} /></div>
    </section>`})}</div>`}function Ve({ts:s,view:e}){let t=e.current;return o`<div class="sam-table">
    <div class="line"><b>${a(`sam.phase.${e.phase}`)}</b>
      ${t?o` · ${a("sam.turn_of",{n:e.turn,name:M(s,t.seat)})}`:""}</div>
    ${e.phase==="figures"&&o`<div class="small">${a("sam.figure_supply",{list:C.map(n=>`${g(n)} ${e.figure_supply[n]}`).join(" · ")})}</div>`}
    <div class="small">${a("sam.set_aside",{list:C.map(n=>`${g(n)} ${e.set_aside[n]}`).join(" · ")})}</div>
    <div class="small muted">${e.board.name} · ${e.tile_set.name}</div>
  </div>`}function Me({ts:s,view:e}){if(!e)return o`<div class="board"><p>${a("board.waiting")}</p></div>`;let t=n=>P({type:"table/select",table:s.id,value:n});return o`<div class="sam">
    <${Oe} ts=${s} view=${e} selected=${H(s)} onSelect=${t} />
    <div class="sam-side"><${Ve} ts=${s} view=${e} /><${Ue} ts=${s} view=${e} /></div>
  </div>`}function We({ts:s,view:e}){let t=s.prompt,n=t.choose.count,i=`pick/${t.id}`,[l,c]=O({key:i,tiles:t.sealed?[...t.sealed]:[]}),p=l.key===i?l.tiles:t.sealed?[...t.sealed]:[],u=h=>{let k=p.includes(h)?p.filter(w=>w!==h):p.length<n?[...p,h]:p;c({key:i,tiles:k})},$=()=>V(s,{type:t.choose.command,decision:t.id,tiles:[...p].sort((h,k)=>h-k)});return o`<div class="sam-pick">
    <p class="small">${a("sam.pick_hint",{n,k:p.length})}</p>
    <div class="tiles" role="group" aria-label=${a("sam.pick")}>
      ${t.choose.tiles.map(h=>o`<${Te} key=${h} view=${e} index=${h} picked=${p.includes(h)} onClick=${()=>u(h)} />`)}
    </div>
    <p><button type="button" class="primary" disabled=${p.length!==n} onClick=${$}>${a("sam.pick_send",{n})}</button></p>
  </div>`}function Ze({ts:s,view:e,answers:t,selected:n,sent:i}){let l=B(e.board.hexes),c=[...new Set(t.flatMap(F))].filter(u=>l.has(u)).sort((u,$)=>l.get(u)[0]-l.get($)[0]||l.get(u)[1]-l.get($)[1]),p=u=>P({type:"table/select",table:s.id,value:u.target.value===""?null:Number(u.target.value)});return o`<label class="field inline hex-list">${a("sam.pick_hex")}
    <select id="sam-hex" value=${n===null?"":String(n)} disabled=${i} onChange=${p}>
      <option value="">${a("sam.pick_hex_none")}</option>
      ${c.map(u=>o`<option key=${u} value=${String(u)}>${_(s,u)}</option>`)}
    </select></label>`}function Fe({ts:s}){let e=s.prompt,t=s.view;if(!e||!t){let d=s.info?s.info.status:"open";return o`<section class="decision idle" aria-label=${a("decision.aria")}>
      <p>${a(d==="open"?"decision.waiting_players":d==="finished"?"decision.over":"decision.none")}</p></section>`}let n=e.pivot===s.you,i=ve(s),l=i,c=H(s),p=c!=null&&l.some(d=>F(d).includes(c));p&&(l=l.filter(d=>F(d).includes(c)||J.includes(d.type)));let u=i.filter(d=>F(d).length>0),$=!p&&u.length>be;$&&(l=i.filter(d=>F(d).length===0));let h=l.length>Z?l.length-Z:0;h&&(l=l.slice(0,Z));let k=n?a("decision.yours"):a("decision.waiting",{name:M(s,e.pivot)}),w=a(`sam.silence.${e.topic}`),R=s.sentFor===le(s),T=Ie(s);return o`<section class=${`decision${n||T?" mine":""}`} aria-label=${a("decision.aria")}>
    <h2>${a(`sam.topic.${e.topic}`)} <span class="muted small">${e.rule}</span></h2>
    <p class="who">${k} <${U} prompt=${e} at=${s.promptAt} bank=${n} /></p>
    ${e.topic==="turn"&&n&&o`<p class="small">${a(e.plain_used?"sam.plain_used":"sam.plain_free",{n:e.placed})}</p>`}
    ${e.sealed&&o`<p class="small sealed">${a("decision.sealed",{answer:ye(s,t,{type:"ChooseTiles",tiles:e.sealed})})}</p>`}
    ${T&&!n&&o`<p class="small note">${a("decision.early")}</p>`}
    ${T&&o`<${We} ts=${s} view=${t} />`}
    ${$&&o`<p class="small">${a("sam.pick_first")}</p>`}
    ${u.length>be&&o`<${Ze} ts=${s} view=${t} answers=${u} selected=${p?c:null} sent=${R} />`}
    ${p&&o`<p class="small">${a("sam.on_hex",{hex:_(s,c)})}
      <button type="button" class="small" onClick=${()=>P({type:"table/select",table:s.id,value:null})}>${a("sam.show_all")}</button></p>`}
    ${l.length>0&&o`<div class="choices" role="group" aria-label=${a("decision.choices")}>
      ${l.map((d,v)=>o`<button type="button" key=${JSON.stringify(d)} class=${`choice ${d.type.toLowerCase()}`} data-key=${q(v)}
          disabled=${R} onClick=${()=>{P({type:"table/select",table:s.id,value:null}),V(s,d)}}>
        ${q(v)&&o`<kbd aria-hidden="true">${q(v)}</kbd>`}<span>${ye(s,t,d)}</span></button>`)}
    </div>`}
    ${h>0&&o`<p class="small muted">${a("sam.more",{n:h})}</p>`}
    <p class="small muted">${a("decision.silence",{what:w!==`sam.silence.${e.topic}`?w:e.silence})}</p>
  </section>`}function Ce({ts:s,view:e}){let t=e&&e.result||s.info&&s.info.result;if(!t)return null;let n=t.ranks.map((l,c)=>c).sort((l,c)=>t.ranks[l]-t.ranks[c]||l-c),i=l=>C.filter((c,p)=>t.majorities[p]===l).map(g).join(", ");return o`<section class="result" aria-label=${a("result.aria")}>
    <h2>${a("result.title")}</h2>
    <p>${a(`sam.end.${t.reason}`)} ${t.winners.length?"":a("sam.nobody_wins")}</p>
    <table>
      <thead><tr><th>${a("result.rank")}</th><th>${a("result.player")}</th>${C.map(l=>o`<th key=${l}>${g(l)}</th>`)}
        <th>${a("sam.majorities")}</th></tr></thead>
      <tbody>${n.map(l=>o`<tr key=${l} class=${l===s.you?"me":""}><td>${t.ranks[l]}</td><td>${M(s,l)}</td>
        ${t.captured[l].map((c,p)=>o`<td key=${p}>${c}</td>`)}<td>${i(l)||"–"}</td></tr>`)}</tbody>
    </table>
    <p class="actions">
      ${s.seated?o`<button type="button" class="primary" onClick=${()=>pe(s)}>
          ${a(s.rematch?"result.join_rematch":"result.rematch")}</button>`:s.rematch&&o`<a class="button primary" href=${`#/t/${s.rematch.table}`}>${a("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${s.id}`}>${a("result.replay")}</a>
      <a class="button" href="#/">${a("nav.lobby")}</a>
    </p>
  </section>`}function Ee(){let s=b.refs.samurai,e=b.lang;return s?o`<div class="reference">
    <p class="muted">${a("sam.ref.influence")}</p>
    <table class="scoring">
      <thead><tr><th>${a("sam.ref.tile")}</th><th>${a("sam.ref.influences")}</th></tr></thead>
      <tbody>${s.kinds.map(t=>o`<tr key=${t.kind}><td>${t.name[e]??t.name.en}</td>
        <td>${t.influences.length?t.influences.map(g).join(", "):"–"}${t.on_sea?` (${a("sam.ref.on_sea")})`:""}</td></tr>`)}</tbody>
    </table>
    <table class="scoring">
      <thead><tr><th>${a("sam.ref.seats")}</th><th>${a("sam.ref.parts")}</th><th>${a("sam.ref.per_kind")}</th></tr></thead>
      <tbody>${s.players.map(t=>o`<tr key=${t.seats}><td>${t.seats}</td><td>${t.parts.join(", ")}</td><td>${t.figures_per_kind}</td></tr>`)}</tbody>
    </table>
    <p class="muted">${a("sam.ref.end")}</p>
    <${Se} open=${!0} />
  </div>`:null}var Pe=s=>s.view&&s.view.board||b.refs.samurai&&b.refs.samurai.board,$t={name:"samurai",Stage:Me,Decision:Fe,Result:Ce,Reference:Ee,reference:s=>s,narrator:(s,e)=>new A(b.cat,b.en,Pe(s),s.view&&s.view.tile_set||b.refs.samurai.tiles,e),narratorBasis:Pe,stylesheet:!0,info:{seats:{min:2,max:4,default:3},options:[],windows:!1}};export{$t as default};
