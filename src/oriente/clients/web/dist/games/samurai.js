import{B as q,C as H,D as g,E,Q as R,W as U,b as I,d as z,e as K,k as O,l as P,n as p,o as j}from"../chunks/UWPSS356.js";var J=s=>s.slice(0,1).toUpperCase()+s.slice(1),V=s=>s.length>0&&s.every(e=>e!=null),M=class extends H{constructor(e,t,i,n,r=null){super(e,t,r),this.names=new Map(i.hexes.filter(o=>o.name).map(o=>[o.id,o.name])),this.tiles=n.tiles}hex(e){return this.names.get(e)||this.t("sam.hex",{id:e})}figure(e){return this.t(`sam.figure.${e}`)}kind(e,t){let i=this.t(`sam.kind.${e}`);return t==null||e==="figure_swap"||e==="tile_swap"?i:this.t("sam.tile",{kind:i,strength:t})}tile(e){if(e==null)return this.t("sam.tile_hidden");let t=this.tiles[e];return this.kind(t.kind,t.strength)}tileList(e){return this.list(e.map(t=>this.tile(t)))}byTable(e,t){return t+(e.by_table?this.t("sam.by_table"):"")+"."}narrate(e,t=null){if(q.has(e.type))return this.tableEvent(e);let i=this[`s_${e.type}`];if(typeof i!="function")return this.fallback(e);let n;try{n=i.call(this,e,t)}catch{return this.fallback(e)}return n.split(`
`).map(J).join(`
`)}s_GameStarted(e){return this.t("sam.GameStarted",{n:e.seats,board:e.board,figures:e.figures_per_kind,first:this.seat(e.first)})}s_SelectionBegan(){return this.t("sam.SelectionBegan")}s_TilesChosen(e){let t=e.tiles||[];return V(t)?this.byTable(e,this.t("sam.TilesChosen",{seat:this.seat(e.seat),tiles:this.tileList(t)})):this.byTable(e,this.t("sam.TilesChosen.hidden",{seat:this.seat(e.seat)}))}s_SelectionDone(e){return this.t("sam.SelectionDone",{n:(e.supply_sizes||[0])[0]})}s_CapitalFilled(e){return this.t("sam.CapitalFilled",{hex:this.hex(e.hex),figures:this.list(e.figures.map(t=>this.figure(t)))})}s_FigurePlaced(e){return this.byTable(e,this.t("sam.FigurePlaced",{seat:this.seat(e.seat),figure:this.figure(e.figure),hex:this.hex(e.hex)}))}s_TurnBegan(e){return this.t("sam.TurnBegan",{turn:e.turn,seat:this.seat(e.seat)})}s_TilePlaced(e){return this.byTable(e,this.t("sam.TilePlaced",{seat:this.seat(e.seat),tile:this.kind(e.kind,e.strength),hex:this.hex(e.hex)}))}s_FiguresSwapped(e){return this.byTable(e,this.t("sam.FiguresSwapped",{seat:this.seat(e.seat),a:this.figure(e.figure_a),hex_a:this.hex(e.hex_a),b:this.figure(e.figure_b),hex_b:this.hex(e.hex_b)}))}s_TileSwapped(e){return this.byTable(e,this.t("sam.TileSwapped",{seat:this.seat(e.seat),hex:this.hex(e.hex),moved:this.tile(e.moved),to:this.hex(e.to)}))}s_TurnEnded(){return""}s_TurnPassed(e){return this.byTable(e,this.t("sam.TurnPassed",{seat:this.seat(e.seat)}))}s_FigureCaptured(e){let t={figure:this.figure(e.figure),hex:this.hex(e.hex)};return e.seat===null||e.seat===void 0?this.t("sam.FigureCaptured.aside",t):this.t("sam.FigureCaptured",{seat:this.seat(e.seat),...t})}s_TilesDrawn(e){let t=e.tiles||[],i=this.seat(e.seat),n=e.supply_left;return V(t)?this.t("sam.TilesDrawn",{seat:i,tiles:this.tileList(t),left:n}):this.plural("sam.TilesDrawn.hidden",t.length,{seat:i,left:n})}s_GameEnded(e){let t=this.t(`sam.GameEnded.${e.reason}`),i=e.winners||[],n=i.length?this.t("sam.GameEnded.winners",{winners:J(this.list(i.map(r=>this.seat(r))))}):this.t("sam.GameEnded.nobody");return`${t}
${n}`}};var l=z.bind(I),S=["helmet","buddha","rice"],ce={helmet:"H",buddha:"B",rice:"R"},de={helmet:"H",buddha:"B",rice:"R",samurai:"S",ronin:"Ro",ship:"Sh",figure_swap:"⇄F",tile_swap:"⇄T"},D=["EndTurn","Pass"],B=60,f=3.2,a=(s,e)=>p.t(s,e);function y(s,e){let t=s.board.hexes.find(i=>i.id===e);return t&&t.name?t.name:a("sam.hex_id",{id:e})}var h=s=>a(`sam.fig.${s}`),Y=s=>a(`sam.kind.${s}`);function v(s,e){let t=s.tile_set.tiles[e];if(!t)return String(e);let i=t.strength===null||t.kind==="figure_swap"||t.kind==="tile_swap"?Y(t.kind):`${Y(t.kind)} ${t.strength}`;return t.fast?`${i} ✦`:i}function Q(s,e,t){switch(t.type){case"ChooseTiles":return a("sam.choice.ChooseTiles",{tiles:t.tiles.map(i=>v(e,i)).join(", ")});case"PlaceFigure":return a("sam.choice.PlaceFigure",{figure:h(t.figure),hex:y(e,t.hex)});case"PlaceTile":return a("sam.choice.PlaceTile",{tile:v(e,t.tile),hex:y(e,t.hex)});case"SwapFigures":return a("sam.choice.SwapFigures",{a:h(t.figure_a),hex_a:y(e,t.hex_a),b:h(t.figure_b),hex_b:y(e,t.hex_b)});case"SwapTile":{let i=e.tiles.find(n=>n.hex===t.hex);return a("sam.choice.SwapTile",{hex:y(e,t.hex),moved:i?v(e,i.tile):"?",to:y(e,t.to)})}case"EndTurn":return a("sam.choice.EndTurn");case"Pass":return a("sam.choice.Pass");default:return t.type}}var N=s=>[s.hex,s.to,s.hex_a,s.hex_b].filter(e=>e!==void 0);function W(s){let e=s.prompt;if(!e||!s.seated||e.pivot!==s.you)return[];let t=(e.legal||[]).filter(n=>n.decision===e.id),i=n=>{let r=D.indexOf(n.type);return r<0?D.length:r};return t.map((n,r)=>[n,r]).sort((n,r)=>i(n[0])-i(r[0])||n[1]-r[1]).map(([n])=>n)}function ue(s){let e=s.prompt;return!!(e&&e.topic==="select"&&s.seated&&e.choose&&(e.asked||[]).includes(s.you)&&!(e.final||[]).includes(s.you))}function me(s){return[f*Math.sqrt(3)*(s.q+s.r/2),f*1.5*s.r]}function pe(s,e){return[0,1,2,3,4,5].map(t=>{let i=Math.PI/180*(60*t-30);return`${(s+f*Math.cos(i)).toFixed(2)},${(e+f*Math.sin(i)).toFixed(2)}`}).join(" ")}function he({ts:s,view:e,selected:t,onSelect:i}){let n=e.board.hexes,r=n.map(me),o=r.map(c=>c[0]),d=r.map(c=>c[1]),[_,x,m,$]=[Math.min(...o)-f-1,Math.max(...o)+f+1,Math.min(...d)-f-1,Math.max(...d)+f+1],u=new Set(W(s).flatMap(N)),k=new Map(e.figures.map(c=>[c.hex,c.figures])),ie=new Map(e.tiles.map(c=>[c.hex,c])),ne=(c,w)=>{let[C,T]=r[w],b=ie.get(c.id),F=k.get(c.id)||[],le=[c.name?`${c.name} (${c.id})`:a("sam.hex_id",{id:c.id}),a(`sam.terrain.${c.terrain}`),F.length?F.map(h).join(", "):"",b?a("sam.tile_of",{tile:v(e,b.tile),name:g(s,b.seat)}):""].filter(Boolean).join(" — "),oe=`hex ${c.terrain}${b?` tiled s${b.seat}`:""}${u.has(c.id)?" open":""}${t===c.id?" selected":""}`;return l`<g key=${c.id} class=${oe} data-hex=${c.id}
        onClick=${u.has(c.id)?()=>i(t===c.id?null:c.id):void 0}>
      <title>${le}</title>
      <polygon points=${pe(C,T)} />
      ${b&&l`<text x=${C} y=${T+.2} class="tk">${de[b.kind]||"?"}</text>
        <text x=${C} y=${T+1.9} class="ts">${b.strength??""}</text>`}
      ${F.map((G,A)=>{let L=C+(A-(F.length-1)/2)*1.9;return l`<g key=${A} class=${`fig ${G}`}><circle cx=${L} cy=${T-.3} r="0.95" /><text x=${L} y=${T+.2} class="fk">${ce[G]}</text></g>`})}
    </g>`},re=(c,w)=>c.name&&l`<text key=${`n${c.id}`} x=${r[w][0]} y=${r[w][1]+f*.95} class="name">${c.name}</text>`;return l`<figure class="sam-map" aria-label=${a("sam.map")}>
    <svg viewBox=${`${_.toFixed(1)} ${m.toFixed(1)} ${(x-_).toFixed(1)} ${($-m).toFixed(1)}`} role="img" aria-label=${a("sam.map")}>
      ${n.map(ne)}
      <g class="names">${n.map(re)}</g>
    </svg>
    ${u.size>0&&l`<figcaption class="small muted">${a("sam.map_hint")}</figcaption>`}
  </figure>`}function X({view:s,index:e,picked:t=!1,onClick:i=null}){let n=s.tile_set.tiles[e],r=`tile k-${n.kind}${n.fast?" fast":""}${t?" picked":""}`,o=v(s,e);return i?l`<button type="button" class=${r} aria-pressed=${t} title=${o} onClick=${i}>${o}</button>`:l`<span class=${r} title=${o}>${o}</span>`}function $e({counts:s}){return s?l`<span class="small">${S.map(e=>`${h(e)} ${s[e]}`).join(" · ")}</span>`:l`<span class="small muted">${a("sam.behind_screen")}</span>`}function fe({ts:s,view:e}){let t=s.prompt||e.decision;return l`<div class="sam-seats">${e.players.map(i=>{let n=i.seat,r=i.hand.filter(o=>o!==null);return l`<section key=${n} class=${`sam-seat s${n}${n===s.you?" me":""}${t&&t.pivot===n?" pivot":""}`}
        aria-label=${a("seat.aria",{name:g(s,n),n})}>
      <header><span class=${`swatch s${n}`} aria-hidden="true"></span><b>${g(s,n)}</b>
        ${t&&t.pivot===n&&s.prompt&&l`<${E} prompt=${s.prompt} at=${s.promptAt} />`}</header>
      <div class="small">${a("sam.hand",{n:i.hand_size})} · ${a("sam.supply",{n:i.supply_size})}</div>
      ${r.length>0&&l`<div class="tiles mine">${r.map(o=>l`<${X} key=${o} view=${e} index=${o} />`)}</div>`}
      <div><span class="small muted">${a("sam.captured")}</span> <${$e} counts=${i.captured} /></div>
    </section>`})}</div>`}function be({ts:s,view:e}){let t=e.current;return l`<div class="sam-table">
    <div class="line"><b>${a(`sam.phase.${e.phase}`)}</b>
      ${t?l` · ${a("sam.turn_of",{n:e.turn,name:g(s,t.seat)})}`:""}</div>
    ${e.phase==="figures"&&l`<div class="small">${a("sam.figure_supply",{list:S.map(i=>`${h(i)} ${e.figure_supply[i]}`).join(" · ")})}</div>`}
    <div class="small">${a("sam.set_aside",{list:S.map(i=>`${h(i)} ${e.set_aside[i]}`).join(" · ")})}</div>
    <div class="small muted">${e.board.name} · ${e.tile_set.name}</div>
  </div>`}function Z({ts:s,view:e}){if(!e)return l`<div class="board"><p>${a("board.waiting")}</p></div>`;let t=i=>j({type:"table/select",table:s.id,value:i});return l`<div class="sam">
    <${he} ts=${s} view=${e} selected=${P(s)} onSelect=${t} />
    <div class="sam-side"><${be} ts=${s} view=${e} /><${fe} ts=${s} view=${e} /></div>
  </div>`}function ge({ts:s,view:e}){let t=s.prompt,i=t.choose.count,n=`pick/${t.id}`,[r,o]=K({key:n,tiles:t.sealed?[...t.sealed]:[]}),d=r.key===n?r.tiles:t.sealed?[...t.sealed]:[],_=m=>{let $=d.includes(m)?d.filter(u=>u!==m):d.length<i?[...d,m]:d;o({key:n,tiles:$})},x=()=>R(s,{type:t.choose.command,decision:t.id,tiles:[...d].sort((m,$)=>m-$)});return l`<div class="sam-pick">
    <p class="small">${a("sam.pick_hint",{n:i,k:d.length})}</p>
    <div class="tiles" role="group" aria-label=${a("sam.pick")}>
      ${t.choose.tiles.map(m=>l`<${X} key=${m} view=${e} index=${m} picked=${d.includes(m)} onClick=${()=>_(m)} />`)}
    </div>
    <p><button type="button" class="primary" disabled=${d.length!==i} onClick=${x}>${a("sam.pick_send",{n:i})}</button></p>
  </div>`}function ee({ts:s}){let e=s.prompt,t=s.view;if(!e||!t){let u=s.info?s.info.status:"open";return l`<section class="decision idle" aria-label=${a("decision.aria")}>
      <p>${a(u==="open"?"decision.waiting_players":u==="finished"?"decision.over":"decision.none")}</p></section>`}let i=e.pivot===s.you,n=W(s),r=P(s),o=r!=null&&n.some(u=>N(u).includes(r));o&&(n=n.filter(u=>N(u).includes(r)||D.includes(u.type)));let d=n.length>B?n.length-B:0;d&&(n=n.slice(0,B));let _=i?a("decision.yours"):a("decision.waiting",{name:g(s,e.pivot)}),x=a(`sam.silence.${e.topic}`),m=s.sentFor===O(s),$=ue(s);return l`<section class=${`decision${i||$?" mine":""}`} aria-label=${a("decision.aria")}>
    <h2>${a(`sam.topic.${e.topic}`)} <span class="muted small">${e.rule}</span></h2>
    <p class="who">${_} <${E} prompt=${e} at=${s.promptAt} bank=${i} /></p>
    ${e.topic==="turn"&&i&&l`<p class="small">${a(e.plain_used?"sam.plain_used":"sam.plain_free",{n:e.placed})}</p>`}
    ${e.sealed&&l`<p class="small sealed">${a("decision.sealed",{answer:Q(s,t,{type:"ChooseTiles",tiles:e.sealed})})}</p>`}
    ${$&&!i&&l`<p class="small note">${a("decision.early")}</p>`}
    ${$&&l`<${ge} ts=${s} view=${t} />`}
    ${o&&l`<p class="small">${a("sam.on_hex",{hex:y(t,r)})}
      <button type="button" class="small" onClick=${()=>j({type:"table/select",table:s.id,value:null})}>${a("sam.show_all")}</button></p>`}
    ${n.length>0&&l`<div class="choices" role="group" aria-label=${a("decision.choices")}>
      ${n.map((u,k)=>l`<button type="button" key=${JSON.stringify(u)} class=${`choice ${u.type.toLowerCase()}`} data-key=${k+1}
          disabled=${m} onClick=${()=>{j({type:"table/select",table:s.id,value:null}),R(s,u)}}>
        ${k<9&&l`<kbd aria-hidden="true">${k+1}</kbd>`}<span>${Q(s,t,u)}</span></button>`)}
    </div>`}
    ${d>0&&l`<p class="small muted">${a("sam.more",{n:d})}</p>`}
    <p class="small muted">${a("decision.silence",{what:x!==`sam.silence.${e.topic}`?x:e.silence})}</p>
  </section>`}function te({ts:s,view:e}){let t=e&&e.result||s.info&&s.info.result;if(!t)return null;let i=t.ranks.map((r,o)=>o).sort((r,o)=>t.ranks[r]-t.ranks[o]||r-o),n=r=>S.filter((o,d)=>t.majorities[d]===r).map(h).join(", ");return l`<section class="result" aria-label=${a("result.aria")}>
    <h2>${a("result.title")}</h2>
    <p>${a(`sam.end.${t.reason}`)} ${t.winners.length?"":a("sam.nobody_wins")}</p>
    <table>
      <thead><tr><th>${a("result.rank")}</th><th>${a("result.player")}</th>${S.map(r=>l`<th key=${r}>${h(r)}</th>`)}
        <th>${a("sam.majorities")}</th></tr></thead>
      <tbody>${i.map(r=>l`<tr key=${r} class=${r===s.you?"me":""}><td>${t.ranks[r]}</td><td>${g(s,r)}</td>
        ${t.captured[r].map((o,d)=>l`<td key=${d}>${o}</td>`)}<td>${n(r)||"–"}</td></tr>`)}</tbody>
    </table>
    <p class="actions">
      ${s.seated?l`<button type="button" class="primary" onClick=${()=>U(s)}>
          ${a(s.rematch?"result.join_rematch":"result.rematch")}</button>`:s.rematch&&l`<a class="button primary" href=${`#/t/${s.rematch.table}`}>${a("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${s.id}`}>${a("result.replay")}</a>
      <a class="button" href="#/">${a("nav.lobby")}</a>
    </p>
  </section>`}function se(){let s=p.refs.samurai,e=p.lang;return s?l`<div class="reference">
    <p class="muted">${a("sam.ref.influence")}</p>
    <table class="scoring">
      <thead><tr><th>${a("sam.ref.tile")}</th><th>${a("sam.ref.influences")}</th></tr></thead>
      <tbody>${s.kinds.map(t=>l`<tr key=${t.kind}><td>${t.name[e]??t.name.en}</td>
        <td>${t.influences.length?t.influences.map(h).join(", "):"–"}${t.on_sea?` (${a("sam.ref.on_sea")})`:""}</td></tr>`)}</tbody>
    </table>
    <table class="scoring">
      <thead><tr><th>${a("sam.ref.seats")}</th><th>${a("sam.ref.parts")}</th><th>${a("sam.ref.per_kind")}</th></tr></thead>
      <tbody>${s.players.map(t=>l`<tr key=${t.seats}><td>${t.seats}</td><td>${t.parts.join(", ")}</td><td>${t.figures_per_kind}</td></tr>`)}</tbody>
    </table>
    <p class="muted">${a("sam.ref.end")}</p>
  </div>`:null}var ae=s=>s.view&&s.view.board||p.refs.samurai&&p.refs.samurai.board,Re={name:"samurai",Stage:Z,Decision:ee,Result:te,Reference:se,reference:s=>s,narrator:(s,e)=>new M(p.cat,p.en,ae(s),s.view&&s.view.tile_set||p.refs.samurai.tiles,e),narratorBasis:ae,stylesheet:!0,info:{seats:{min:2,max:4,default:3},options:[],windows:!1}};export{Re as default};
