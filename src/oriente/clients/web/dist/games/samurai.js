import{a as ue,b as pe,c as me}from"../chunks/WMLQX5J2.js";import{B as re,C as le,D as M,E as H,P as oe,R as U,X as ce,b as ae,d as ie,e as z,k as ne,l as O,n as b,o as P}from"../chunks/JM66SP7N.js";function W(s){let e="ABCDEFGHIJKLMNOPQRSTUVWXYZ";return s<26?e[s]:e[Math.floor(s/26)-1]+e[s%26]}function q(s){let e=n=>n.q+(n.r-(n.r&1))/2,t=Math.min(...s.map(e)),i=Math.min(...s.map(n=>n.r));return new Map(s.map(n=>[n.id,[n.r-i,e(n)-t]]))}function de(s){return new Map([...q(s)].map(([e,[t,i]])=>[e,`${W(t)}${i+1}`]))}var $e=s=>s.slice(0,1).toUpperCase()+s.slice(1),he=s=>s.length>0&&s.every(e=>e!=null),B=class extends le{constructor(e,t,i,n,r=null){super(e,t,r),this.names=new Map(i.hexes.filter(c=>c.name).map(c=>[c.id,c.name])),this.villages=new Set(i.hexes.filter(c=>c.terrain==="village").map(c=>c.id)),this.squares=de(i.hexes),this.tiles=n.tiles}hex(e){let t=this.squares.get(e);return t===void 0?this.t("sam.hex",{id:e}):this.names.has(e)?this.t("sam.hex_named",{name:this.names.get(e),square:t}):this.t(this.villages.has(e)?"sam.hex_village":"sam.hex_square",{square:t})}figure(e){return this.t(`sam.figure.${e}`)}kind(e,t){let i=this.t(`sam.kind.${e}`);return t==null||e==="figure_swap"||e==="tile_swap"?i:this.t("sam.tile",{kind:i,strength:t})}tile(e){if(e==null)return this.t("sam.tile_hidden");let t=this.tiles[e];return this.kind(t.kind,t.strength)}tileList(e){return this.list(e.map(t=>this.tile(t)))}byTable(e,t){return t+(e.by_table?this.t("sam.by_table"):"")+"."}narrate(e,t=null){if(re.has(e.type))return this.tableEvent(e);let i=this[`s_${e.type}`];if(typeof i!="function")return this.fallback(e);let n;try{n=i.call(this,e,t)}catch{return this.fallback(e)}return n.split(`
`).map($e).join(`
`)}s_GameStarted(e){return this.t("sam.GameStarted",{n:e.seats,board:e.board,figures:e.figures_per_kind,first:this.seat(e.first)})}s_SelectionBegan(){return this.t("sam.SelectionBegan")}s_TilesChosen(e){let t=e.tiles||[];return he(t)?this.byTable(e,this.t("sam.TilesChosen",{seat:this.seat(e.seat),tiles:this.tileList(t)})):this.byTable(e,this.t("sam.TilesChosen.hidden",{seat:this.seat(e.seat)}))}s_SelectionDone(e){return this.t("sam.SelectionDone",{n:(e.supply_sizes||[0])[0]})}s_CapitalFilled(e){return this.t("sam.CapitalFilled",{hex:this.hex(e.hex),figures:this.list(e.figures.map(t=>this.figure(t)))})}s_FigurePlaced(e){return this.byTable(e,this.t("sam.FigurePlaced",{seat:this.seat(e.seat),figure:this.figure(e.figure),hex:this.hex(e.hex)}))}s_TurnBegan(e){return this.t("sam.TurnBegan",{turn:e.turn,seat:this.seat(e.seat)})}s_TilePlaced(e){return this.byTable(e,this.t("sam.TilePlaced",{seat:this.seat(e.seat),tile:this.kind(e.kind,e.strength),hex:this.hex(e.hex)}))}s_FiguresSwapped(e){return this.byTable(e,this.t("sam.FiguresSwapped",{seat:this.seat(e.seat),a:this.figure(e.figure_a),hex_a:this.hex(e.hex_a),b:this.figure(e.figure_b),hex_b:this.hex(e.hex_b)}))}s_TileSwapped(e){return this.byTable(e,this.t("sam.TileSwapped",{seat:this.seat(e.seat),hex:this.hex(e.hex),moved:this.tile(e.moved),to:this.hex(e.to)}))}s_TurnEnded(){return""}s_TurnPassed(e){return this.byTable(e,this.t("sam.TurnPassed",{seat:this.seat(e.seat)}))}s_FigureCaptured(e){let t={figure:this.figure(e.figure),hex:this.hex(e.hex)};return e.seat===null||e.seat===void 0?this.t("sam.FigureCaptured.aside",t):this.t("sam.FigureCaptured",{seat:this.seat(e.seat),...t})}s_TilesDrawn(e){let t=e.tiles||[],i=this.seat(e.seat),n=e.supply_left;return he(t)?this.t("sam.TilesDrawn",{seat:i,tiles:this.tileList(t),left:n}):this.plural("sam.TilesDrawn.hidden",t.length,{seat:i,left:n})}s_GameEnded(e){let t=this.t(`sam.GameEnded.${e.reason}`),i=e.winners||[],n=i.length?this.t("sam.GameEnded.winners",{winners:$e(this.list(i.map(r=>this.seat(r))))}):this.t("sam.GameEnded.nobody");return`${t}
${n}`}};var o=ie.bind(ae),C=["helmet","buddha","rice"],xe={helmet:"H",buddha:"B",rice:"R"},_e={helmet:"H",buddha:"B",rice:"R",samurai:"S",ronin:"Ro",ship:"Sh",figure_swap:"⇄F",tile_swap:"⇄T"},J=["EndTurn","Pass"],Z=60,fe=12,y=3.2,a=(s,e)=>b.t(s,e);function _(s,e){return oe(s).hex(e)}var g=s=>a(`sam.fig.${s}`),V=s=>a(`sam.kind.${s}`);function j(s,e){let t=s.tile_set.tiles[e];if(!t)return String(e);let i=t.strength===null||t.kind==="figure_swap"||t.kind==="tile_swap"?V(t.kind):`${V(t.kind)} ${t.strength}`;return t.fast?`${i} ✦`:i}function ge(s,e,t){switch(t.type){case"ChooseTiles":return a("sam.choice.ChooseTiles",{tiles:t.tiles.map(i=>j(e,i)).join(", ")});case"PlaceFigure":return a("sam.choice.PlaceFigure",{figure:g(t.figure),hex:_(s,t.hex)});case"PlaceTile":return a("sam.choice.PlaceTile",{tile:j(e,t.tile),hex:_(s,t.hex)});case"SwapFigures":return a("sam.choice.SwapFigures",{a:g(t.figure_a),hex_a:_(s,t.hex_a),b:g(t.figure_b),hex_b:_(s,t.hex_b)});case"SwapTile":{let i=e.tiles.find(n=>n.hex===t.hex);return a("sam.choice.SwapTile",{hex:_(s,t.hex),moved:i?j(e,i.tile):"?",to:_(s,t.to)})}case"EndTurn":return a("sam.choice.EndTurn");case"Pass":return a("sam.choice.Pass");default:return t.type}}var F=s=>[s.hex,s.to,s.hex_a,s.hex_b].filter(e=>e!==void 0);function ke(s){let e=s.prompt;if(!e||!s.seated||e.pivot!==s.you)return[];let t=(e.legal||[]).filter(n=>n.decision===e.id),i=n=>{let r=J.indexOf(n.type);return r<0?J.length:r};return t.map((n,r)=>[n,r]).sort((n,r)=>i(n[0])-i(r[0])||n[1]-r[1]).map(([n])=>n)}function Ae(s){let e=s.prompt;return!!(e&&e.topic==="select"&&s.seated&&e.choose&&(e.asked||[]).includes(s.you)&&!(e.final||[]).includes(s.you))}var be=44/(Math.sqrt(3)*y);function Ge(s){return[y*Math.sqrt(3)*(s.q+s.r/2),y*1.5*s.r]}function Le(s,e){return[0,1,2,3,4,5].map(t=>{let i=Math.PI/180*(60*t-30);return`${(s+y*Math.cos(i)).toFixed(2)},${(e+y*Math.sin(i)).toFixed(2)}`}).join(" ")}function Ie(s,e,t){return t===0?[]:t===1?[[s,e-.4]]:t===2?[[s-1.1,e-.4],[s+1.1,e-.4]]:[[s-1.1,e-1.1],[s+1.1,e-1.1],[s,e+.7]]}function ye(s,e,t,i,n){return[_(s,t.id),a(`sam.terrain.${t.terrain}`),i.length?i.map(g).join(", "):"",n?a("sam.tile_of",{tile:j(e,n.tile),name:M(s,n.seat)}):""].filter(Boolean).join(" — ")}function Ke({ts:s,view:e,selected:t,onSelect:i}){let[n,r]=ue("samurai"),[c,p]=z(null),u=e.board.hexes,$=u.map(Ge),h=$.map(l=>l[0]),k=$.map(l=>l[1]),[w,R,T,d]=[Math.min(...h)-y-3,Math.max(...h)+y+1,Math.min(...k)-y-3,Math.max(...k)+y+1],v=new Set(ke(s).flatMap(F)),Y=new Map(e.figures.map(l=>[l.hex,l.figures])),Q=new Map(e.tiles.map(l=>[l.hex,l])),A=u.map((l,m)=>[l.id,$[m][0],$[m][1]]).filter(l=>v.has(l[0])),Ee=v.has(t)?t:A.length?A[0][0]:null,Pe=l=>{let m=document.querySelector(`.sam-map [data-hex="${l}"]`);m&&m.focus()},je=(l,m)=>{if(l.key==="Enter"||l.key===" ")l.preventDefault(),i(t===m?null:m);else if(l.key.startsWith("Arrow")){let f=me(A,m,l.key);l.preventDefault(),f!==null&&(Pe(f),p(f))}},Re=(l,m)=>{let[f,S]=$[m],x=Q.get(l.id),E=Y.get(l.id)||[],te=ye(s,e,l,E,x),I=v.has(l.id),qe=`hex ${l.terrain}${x?` tiled s${x.seat}`:""}${I?" open":""}${t===l.id?" selected":""}`,Be=I?{tabindex:l.id===Ee?"0":"-1",role:"button","aria-label":te,"aria-pressed":t===l.id?"true":"false",onKeyDown:D=>je(D,l.id),onFocus:()=>p(l.id)}:{};return o`<g key=${l.id} class=${qe} data-hex=${l.id} ...${Be}
        onClick=${()=>{p(l.id),I&&i(t===l.id?null:l.id)}}>
      <title>${te}</title>
      <polygon points=${Le(f,S)} />
      ${l.terrain==="village"&&!x&&!E.length&&o`<circle cx=${f} cy=${S} r="0.55" class="village-dot" />`}
      ${x&&o`<text x=${f} y=${S+.3} class="tk">${_e[x.kind]||"?"}</text>
        <text x=${f} y=${S+2.1} class="ts">${x.strength??""}${e.tile_set.tiles[x.tile]&&e.tile_set.tiles[x.tile].fast?"✦":""}</text>`}
      ${Ie(f,S,E.length).map(([D,se],K)=>o`<g key=${K} class=${`fig ${E[K]}`}>
        <circle cx=${D} cy=${se} r="1.05" /><text x=${D} y=${se+.55} class="fk">${xe[E[K]]}</text></g>`)}
    </g>`},Ne=(l,m)=>l.name&&o`<text key=${`n${l.id}`} x=${$[m][0]} y=${$[m][1]+y*.98} class="name">${l.name}</text>`,De=q(u),G=new Map,L=new Map;u.forEach((l,m)=>{let[f,S]=De.get(l.id);G.has(f)||G.set(f,$[m][1]),!(l.r&1)&&!L.has(S)&&L.set(S,$[m][0])});let X=R-w,ee=d-T,N=c!==null?u.find(l=>l.id===c):null;return o`<figure class="sam-map" aria-label=${a("sam.map")}>
    <${pe} zoom=${n} setZoom=${r} label=${a("sam.map")}>
      <svg viewBox=${`${w.toFixed(1)} ${T.toFixed(1)} ${X.toFixed(1)} ${ee.toFixed(1)}`}
          width=${Math.round(X*be*n)} height=${Math.round(ee*be*n)} aria-label=${a("sam.map")}>
        <g class="rulers" aria-hidden="true">
          ${[...G].map(([l,m])=>o`<text key=${`r${l}`} x=${w+1.2} y=${m+.6} class="rule">${W(l)}</text>`)}
          ${[...L].map(([l,m])=>o`<text key=${`c${l}`} x=${m} y=${T+1.9} class="rule">${l+1}</text>`)}
        </g>
        ${u.map(Re)}
        <g class="names" aria-hidden="true">${u.map(Ne)}</g>
      </svg>
    <//>
    <figcaption class="small">
      ${N?o`<span class="hex-told" aria-live="polite">${ye(s,e,N,Y.get(N.id)||[],Q.get(N.id))}</span>`:v.size>0?o`<span class="muted">${a("sam.map_hint")}</span>`:""}
    </figcaption>
    <${we} />
  </figure>`}function we({open:s=!1}){let e=["helmet","buddha","rice","samurai","ronin","ship","figure_swap","tile_swap"];return o`<details class="legend" open=${s}>
    <summary>${a("map.legend")}</summary>
    <p class="small">${a("sam.legend.squares")}</p>
    <p class="small">${a("sam.legend.tiles")} ${e.map(t=>o`<span key=${t} class="sym"><b>${_e[t]}</b> ${V(t)}</span>`)}</p>
    <p class="small">${a("sam.legend.figures")} ${C.map(t=>o`<span key=${t} class=${`sym fig-sym ${t}`}><b>${xe[t]}</b> ${g(t)}</span>`)}</p>
    <p class="small">${a("sam.legend.fast")}</p>
    <p class="small">${a("sam.legend.terrain")} ${["sea","land","village","city","capital"].map(t=>o`<span key=${t} class=${`sym terrain ${t}`}><i aria-hidden="true"></i> ${a(`sam.terrain.${t}`)}</span>`)}</p>
    <p class="small">${a("sam.legend.open")}</p>
    <p class="small muted">${a("map.keys")}</p>
  </details>`}function ve({view:s,index:e,picked:t=!1,onClick:i=null}){let n=s.tile_set.tiles[e],r=`tile k-${n.kind}${n.fast?" fast":""}${t?" picked":""}`,c=j(s,e);return i?o`<button type="button" class=${r} aria-pressed=${t} title=${c} onClick=${i}>${c}</button>`:o`<span class=${r} title=${c}>${c}</span>`}function ze({counts:s}){return s?o`<span class="small">${C.map(e=>`${g(e)} ${s[e]}`).join(" · ")}</span>`:o`<span class="small muted">${a("sam.behind_screen")}</span>`}function Oe({ts:s,view:e}){let t=s.prompt||e.decision;return o`<div class="sam-seats">${e.players.map(i=>{let n=i.seat,r=i.hand.filter(c=>c!==null);return o`<section key=${n} class=${`sam-seat s${n}${n===s.you?" me":""}${t&&t.pivot===n?" pivot":""}`}
        aria-label=${a("seat.aria",{name:M(s,n),n})}>
      <header><span class=${`swatch s${n}`} aria-hidden="true"></span><b>${M(s,n)}</b>
        ${t&&t.pivot===n&&s.prompt&&o`<${H} prompt=${s.prompt} at=${s.promptAt} />`}</header>
      <div class="small">${a("sam.hand",{n:i.hand_size})} · ${a("sam.supply",{n:i.supply_size})}</div>
      ${r.length>0&&o`<div class="tiles mine">${r.map(c=>o`<${ve} key=${c} view=${e} index=${c} />`)}</div>`}
      <div><span class="small muted">${a("sam.captured")}</span> <${ze} counts=${i.captured} /></div>
    </section>`})}</div>`}function He({ts:s,view:e}){let t=e.current;return o`<div class="sam-table">
    <div class="line"><b>${a(`sam.phase.${e.phase}`)}</b>
      ${t?o` · ${a("sam.turn_of",{n:e.turn,name:M(s,t.seat)})}`:""}</div>
    ${e.phase==="figures"&&o`<div class="small">${a("sam.figure_supply",{list:C.map(i=>`${g(i)} ${e.figure_supply[i]}`).join(" · ")})}</div>`}
    <div class="small">${a("sam.set_aside",{list:C.map(i=>`${g(i)} ${e.set_aside[i]}`).join(" · ")})}</div>
    <div class="small muted">${e.board.name} · ${e.tile_set.name}</div>
  </div>`}function Se({ts:s,view:e}){if(!e)return o`<div class="board"><p>${a("board.waiting")}</p></div>`;let t=i=>P({type:"table/select",table:s.id,value:i});return o`<div class="sam">
    <${Ke} ts=${s} view=${e} selected=${O(s)} onSelect=${t} />
    <div class="sam-side"><${He} ts=${s} view=${e} /><${Oe} ts=${s} view=${e} /></div>
  </div>`}function Ue({ts:s,view:e}){let t=s.prompt,i=t.choose.count,n=`pick/${t.id}`,[r,c]=z({key:n,tiles:t.sealed?[...t.sealed]:[]}),p=r.key===n?r.tiles:t.sealed?[...t.sealed]:[],u=h=>{let k=p.includes(h)?p.filter(w=>w!==h):p.length<i?[...p,h]:p;c({key:n,tiles:k})},$=()=>U(s,{type:t.choose.command,decision:t.id,tiles:[...p].sort((h,k)=>h-k)});return o`<div class="sam-pick">
    <p class="small">${a("sam.pick_hint",{n:i,k:p.length})}</p>
    <div class="tiles" role="group" aria-label=${a("sam.pick")}>
      ${t.choose.tiles.map(h=>o`<${ve} key=${h} view=${e} index=${h} picked=${p.includes(h)} onClick=${()=>u(h)} />`)}
    </div>
    <p><button type="button" class="primary" disabled=${p.length!==i} onClick=${$}>${a("sam.pick_send",{n:i})}</button></p>
  </div>`}function We({ts:s,view:e,answers:t,selected:i,sent:n}){let r=q(e.board.hexes),c=[...new Set(t.flatMap(F))].filter(u=>r.has(u)).sort((u,$)=>r.get(u)[0]-r.get($)[0]||r.get(u)[1]-r.get($)[1]),p=u=>P({type:"table/select",table:s.id,value:u.target.value===""?null:Number(u.target.value)});return o`<label class="field inline hex-list">${a("sam.pick_hex")}
    <select id="sam-hex" value=${i===null?"":String(i)} disabled=${n} onChange=${p}>
      <option value="">${a("sam.pick_hex_none")}</option>
      ${c.map(u=>o`<option key=${u} value=${String(u)}>${_(s,u)}</option>`)}
    </select></label>`}function Te({ts:s}){let e=s.prompt,t=s.view;if(!e||!t){let d=s.info?s.info.status:"open";return o`<section class="decision idle" aria-label=${a("decision.aria")}>
      <p>${a(d==="open"?"decision.waiting_players":d==="finished"?"decision.over":"decision.none")}</p></section>`}let i=e.pivot===s.you,n=ke(s),r=n,c=O(s),p=c!=null&&r.some(d=>F(d).includes(c));p&&(r=r.filter(d=>F(d).includes(c)||J.includes(d.type)));let u=n.filter(d=>F(d).length>0),$=!p&&u.length>fe;$&&(r=n.filter(d=>F(d).length===0));let h=r.length>Z?r.length-Z:0;h&&(r=r.slice(0,Z));let k=i?a("decision.yours"):a("decision.waiting",{name:M(s,e.pivot)}),w=a(`sam.silence.${e.topic}`),R=s.sentFor===ne(s),T=Ae(s);return o`<section class=${`decision${i||T?" mine":""}`} aria-label=${a("decision.aria")}>
    <h2>${a(`sam.topic.${e.topic}`)} <span class="muted small">${e.rule}</span></h2>
    <p class="who">${k} <${H} prompt=${e} at=${s.promptAt} bank=${i} /></p>
    ${e.topic==="turn"&&i&&o`<p class="small">${a(e.plain_used?"sam.plain_used":"sam.plain_free",{n:e.placed})}</p>`}
    ${e.sealed&&o`<p class="small sealed">${a("decision.sealed",{answer:ge(s,t,{type:"ChooseTiles",tiles:e.sealed})})}</p>`}
    ${T&&!i&&o`<p class="small note">${a("decision.early")}</p>`}
    ${T&&o`<${Ue} ts=${s} view=${t} />`}
    ${$&&o`<p class="small">${a("sam.pick_first")}</p>`}
    ${u.length>fe&&o`<${We} ts=${s} view=${t} answers=${u} selected=${p?c:null} sent=${R} />`}
    ${p&&o`<p class="small">${a("sam.on_hex",{hex:_(s,c)})}
      <button type="button" class="small" onClick=${()=>P({type:"table/select",table:s.id,value:null})}>${a("sam.show_all")}</button></p>`}
    ${r.length>0&&o`<div class="choices" role="group" aria-label=${a("decision.choices")}>
      ${r.map((d,v)=>o`<button type="button" key=${JSON.stringify(d)} class=${`choice ${d.type.toLowerCase()}`} data-key=${v+1}
          disabled=${R} onClick=${()=>{P({type:"table/select",table:s.id,value:null}),U(s,d)}}>
        ${v<9&&o`<kbd aria-hidden="true">${v+1}</kbd>`}<span>${ge(s,t,d)}</span></button>`)}
    </div>`}
    ${h>0&&o`<p class="small muted">${a("sam.more",{n:h})}</p>`}
    <p class="small muted">${a("decision.silence",{what:w!==`sam.silence.${e.topic}`?w:e.silence})}</p>
  </section>`}function Me({ts:s,view:e}){let t=e&&e.result||s.info&&s.info.result;if(!t)return null;let i=t.ranks.map((r,c)=>c).sort((r,c)=>t.ranks[r]-t.ranks[c]||r-c),n=r=>C.filter((c,p)=>t.majorities[p]===r).map(g).join(", ");return o`<section class="result" aria-label=${a("result.aria")}>
    <h2>${a("result.title")}</h2>
    <p>${a(`sam.end.${t.reason}`)} ${t.winners.length?"":a("sam.nobody_wins")}</p>
    <table>
      <thead><tr><th>${a("result.rank")}</th><th>${a("result.player")}</th>${C.map(r=>o`<th key=${r}>${g(r)}</th>`)}
        <th>${a("sam.majorities")}</th></tr></thead>
      <tbody>${i.map(r=>o`<tr key=${r} class=${r===s.you?"me":""}><td>${t.ranks[r]}</td><td>${M(s,r)}</td>
        ${t.captured[r].map((c,p)=>o`<td key=${p}>${c}</td>`)}<td>${n(r)||"–"}</td></tr>`)}</tbody>
    </table>
    <p class="actions">
      ${s.seated?o`<button type="button" class="primary" onClick=${()=>ce(s)}>
          ${a(s.rematch?"result.join_rematch":"result.rematch")}</button>`:s.rematch&&o`<a class="button primary" href=${`#/t/${s.rematch.table}`}>${a("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${s.id}`}>${a("result.replay")}</a>
      <a class="button" href="#/">${a("nav.lobby")}</a>
    </p>
  </section>`}function Fe(){let s=b.refs.samurai,e=b.lang;return s?o`<div class="reference">
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
    <${we} open=${!0} />
  </div>`:null}var Ce=s=>s.view&&s.view.board||b.refs.samurai&&b.refs.samurai.board,pt={name:"samurai",Stage:Se,Decision:Te,Result:Me,Reference:Fe,reference:s=>s,narrator:(s,e)=>new B(b.cat,b.en,Ce(s),s.view&&s.view.tile_set||b.refs.samurai.tiles,e),narratorBasis:Ce,stylesheet:!0,info:{seats:{min:2,max:4,default:3},options:[],windows:!1}};export{pt as default};
