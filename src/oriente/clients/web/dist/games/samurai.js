import{a as de,b as $e,c as he}from"../chunks/RJOKS4MD.js";import{$ as me,C as ce,D as ue,E as M,F as U,G as D,b as ne,ba as V,d as re,e as O,f as le,ha as pe,l as oe,m as H,o as b,p as j}from"../chunks/VERQYIVV.js";function W(s){let e="ABCDEFGHIJKLMNOPQRSTUVWXYZ";return s<26?e[s]:e[Math.floor(s/26)-1]+e[s%26]}function q(s){let e=n=>n.q+(n.r-(n.r&1))/2,t=Math.min(...s.map(e)),a=Math.min(...s.map(n=>n.r));return new Map(s.map(n=>[n.id,[n.r-a,e(n)-t]]))}function fe(s){return new Map([...q(s)].map(([e,[t,a]])=>[e,`${W(t)}${a+1}`]))}var ge=s=>s.slice(0,1).toUpperCase()+s.slice(1),be=s=>s.length>0&&s.every(e=>e!=null),Z=["helmet","buddha","rice"],B=class extends ue{constructor(e,t,a,n,r=null){super(e,t,r),this.names=new Map(a.hexes.filter(l=>l.name).map(l=>[l.id,l.name])),this.villages=new Set(a.hexes.filter(l=>l.terrain==="village").map(l=>l.id)),this.squares=fe(a.hexes),this.tiles=n.tiles}hex(e){let t=this.squares.get(e);return t===void 0?this.t("sam.hex",{id:e}):this.names.has(e)?this.t("sam.hex_named",{name:this.names.get(e),square:t}):this.t(this.villages.has(e)?"sam.hex_village":"sam.hex_square",{square:t})}figure(e){return this.t(`sam.figure.${e}`)}kind(e,t){let a=this.t(`sam.kind.${e}`);return t==null||e==="figure_swap"||e==="tile_swap"?a:this.t("sam.tile",{kind:a,strength:t})}tile(e){if(e==null)return this.t("sam.tile_hidden");let t=this.tiles[e];return this.kind(t.kind,t.strength)}tileList(e){return this.list(e.map(t=>this.tile(t)))}byTable(e,t){return t+(e.by_table?this.t("sam.by_table"):"")+"."}narrate(e,t=null){if(ce.has(e.type))return this.tableEvent(e);let a=this[`s_${e.type}`];if(typeof a!="function")return this.fallback(e);let n;try{n=a.call(this,e,t)}catch{return this.fallback(e)}return n.split(`
`).map(ge).join(`
`)}s_GameStarted(e){return this.t("sam.GameStarted",{n:e.seats,board:e.board,figures:e.figures_per_kind,first:this.seat(e.first)})}s_SelectionBegan(){return this.t("sam.SelectionBegan")}s_TilesChosen(e){let t=e.tiles||[];return be(t)?this.byTable(e,this.t("sam.TilesChosen",{seat:this.seat(e.seat),tiles:this.tileList(t)})):this.byTable(e,this.t("sam.TilesChosen.hidden",{seat:this.seat(e.seat)}))}s_SelectionDone(e){return this.t("sam.SelectionDone",{n:(e.supply_sizes||[0])[0]})}s_CapitalFilled(e){return this.t("sam.CapitalFilled",{hex:this.hex(e.hex),figures:this.list(e.figures.map(t=>this.figure(t)))})}s_FigurePlaced(e){return this.byTable(e,this.t("sam.FigurePlaced",{seat:this.seat(e.seat),figure:this.figure(e.figure),hex:this.hex(e.hex)}))}s_TurnBegan(e){return this.t("sam.TurnBegan",{turn:e.turn,seat:this.seat(e.seat)})}s_TilePlaced(e){return this.byTable(e,this.t("sam.TilePlaced",{seat:this.seat(e.seat),tile:this.kind(e.kind,e.strength),hex:this.hex(e.hex)}))}s_FiguresSwapped(e){return this.byTable(e,this.t("sam.FiguresSwapped",{seat:this.seat(e.seat),a:this.figure(e.figure_a),hex_a:this.hex(e.hex_a),b:this.figure(e.figure_b),hex_b:this.hex(e.hex_b)}))}s_TileSwapped(e){return this.byTable(e,this.t("sam.TileSwapped",{seat:this.seat(e.seat),hex:this.hex(e.hex),moved:this.tile(e.moved),to:this.hex(e.to)}))}s_TurnEnded(){return""}s_TurnPassed(e){return this.byTable(e,this.t("sam.TurnPassed",{seat:this.seat(e.seat)}))}s_FigureCaptured(e){let t={figure:this.figure(e.figure),hex:this.hex(e.hex)};return e.seat===null||e.seat===void 0?this.t("sam.FigureCaptured.aside",t):this.t("sam.FigureCaptured",{seat:this.seat(e.seat),...t})}s_TilesDrawn(e){let t=e.tiles||[],a=this.seat(e.seat),n=e.supply_left;return be(t)?this.t("sam.TilesDrawn",{seat:a,tiles:this.tileList(t),left:n}):this.plural("sam.TilesDrawn.hidden",t.length,{seat:a,left:n})}ending(e){let{reason:t,captured:a,set_aside:n}=e;if(t==="no_moves")return this.t("sam.GameEnded.guard");if(!a||!n)return this.t(`sam.GameEnded.${t}`);let r=[0,1,2].map(l=>a.reduce((u,m)=>u+m[l],0)+n[l]);if(t==="last_figure"){let l=Z.filter((u,m)=>r[m]===Math.max(...r));return this.plural("sam.GameEnded.ran_out",l.length,{figures:this.list(l.map(u=>this.t(`sam.last.${u}`)))})}return t==="set_aside"?this.t("sam.GameEnded.aside",{list:this.list([0,1,2].filter(l=>n[l]).map(l=>this.plural(`sam.count.${Z[l]}`,n[l])))}):this.t(`sam.GameEnded.${t}`)}s_GameEnded(e){let t=[this.ending(e)],a=e.majorities,n=e.captured;if(a&&n&&a.some(l=>l!=null)){let l=[];a.forEach((u,m)=>{u!=null&&l.push(this.t("sam.GameEnded.majority",{seat:this.seat(u),figures:this.t(`sam.figures.${Z[m]}`),n:n[u][m]}))}),t.push(this.t("sam.GameEnded.majorities",{list:this.list(l)}))}let r=e.winners||[];return t.push(r.length?this.t("sam.GameEnded.winners",{winners:ge(this.list(r.map(l=>this.seat(l))))}):this.t("sam.GameEnded.nobody")),t.join(`
`)}};var c=re.bind(ne),C=["helmet","buddha","rice"],we={helmet:"H",buddha:"B",rice:"R"},ve={helmet:"H",buddha:"B",rice:"R",samurai:"S",ronin:"Ro",ship:"Sh",figure_swap:"⇄F",tile_swap:"⇄T"},Y=["EndTurn","Pass"],J=60,ye=12,y=3.2,i=(s,e)=>b.t(s,e);function x(s,e){return me(s).hex(e)}var g=s=>i(`sam.fig.${s}`),Q=s=>i(`sam.kind.${s}`);function P(s,e){let t=s.tile_set.tiles[e];if(!t)return String(e);let a=t.strength===null||t.kind==="figure_swap"||t.kind==="tile_swap"?Q(t.kind):`${Q(t.kind)} ${t.strength}`;return t.fast?`${a} ✦`:a}function _e(s,e,t){switch(t.type){case"ChooseTiles":return i("sam.choice.ChooseTiles",{tiles:t.tiles.map(a=>P(e,a)).join(", ")});case"PlaceFigure":return i("sam.choice.PlaceFigure",{figure:g(t.figure),hex:x(s,t.hex)});case"PlaceTile":return i("sam.choice.PlaceTile",{tile:P(e,t.tile),hex:x(s,t.hex)});case"SwapFigures":return i("sam.choice.SwapFigures",{a:g(t.figure_a),hex_a:x(s,t.hex_a),b:g(t.figure_b),hex_b:x(s,t.hex_b)});case"SwapTile":{let a=e.tiles.find(n=>n.hex===t.hex);return i("sam.choice.SwapTile",{hex:x(s,t.hex),moved:a?P(e,a.tile):"?",to:x(s,t.to)})}case"EndTurn":return i("sam.choice.EndTurn");case"Pass":return i("sam.choice.Pass");default:return t.type}}var F=s=>[s.hex,s.to,s.hex_a,s.hex_b].filter(e=>e!==void 0);function Se(s){let e=s.prompt;if(!e||!s.seated||e.pivot!==s.you)return[];let t=(e.legal||[]).filter(n=>n.decision===e.id),a=n=>{let r=Y.indexOf(n.type);return r<0?Y.length:r};return t.map((n,r)=>[n,r]).sort((n,r)=>a(n[0])-a(r[0])||n[1]-r[1]).map(([n])=>n)}function Ke(s){let e=s.prompt;return!!(e&&e.topic==="select"&&s.seated&&e.choose&&(e.asked||[]).includes(s.you)&&!(e.final||[]).includes(s.you))}var xe=44/(Math.sqrt(3)*y);function Le(s){return[y*Math.sqrt(3)*(s.q+s.r/2),y*1.5*s.r]}function ze(s,e){return[0,1,2,3,4,5].map(t=>{let a=Math.PI/180*(60*t-30);return`${(s+y*Math.cos(a)).toFixed(2)},${(e+y*Math.sin(a)).toFixed(2)}`}).join(" ")}function Oe(s,e,t){return t===0?[]:t===1?[[s,e-.4]]:t===2?[[s-1.1,e-.4],[s+1.1,e-.4]]:[[s-1.1,e-1.1],[s+1.1,e-1.1],[s,e+.7]]}function ke(s,e,t,a,n){return[x(s,t.id),i(`sam.terrain.${t.terrain}`),a.length?a.map(g).join(", "):"",n?i("sam.tile_of",{tile:P(e,n.tile),name:M(s,n.seat)}):""].filter(Boolean).join(" — ")}function He({ts:s,view:e,selected:t,onSelect:a}){let[n,r]=de("samurai"),[l,u]=O(null),m=e.board.hexes,$=m.map(Le),h=$.map(o=>o[0]),k=$.map(o=>o[1]),[w,G,T,d]=[Math.min(...h)-y-3,Math.max(...h)+y+1,Math.min(...k)-y-3,Math.max(...k)+y+1],v=new Set(Se(s).flatMap(F)),X=new Map(e.figures.map(o=>[o.hex,o.figures])),ee=new Map(e.tiles.map(o=>[o.hex,o])),A=m.map((o,p)=>[o.id,$[p][0],$[p][1]]).filter(o=>v.has(o[0])),Ge=v.has(t)?t:A.length?A[0][0]:null;le(()=>{let o=t===null?null:document.querySelector(`.sam-map [data-hex="${t}"]`);o&&o.scrollIntoView&&o.scrollIntoView({block:"nearest",inline:"nearest"})},[t]);let Ne=o=>{let p=document.querySelector(`.sam-map [data-hex="${o}"]`);p&&p.focus()},Re=(o,p)=>{if(o.key==="Enter"||o.key===" ")o.preventDefault(),a(t===p?null:p);else if(o.key.startsWith("Arrow")){let f=he(A,p,o.key);o.preventDefault(),f!==null&&(Ne(f),u(f))}},De=(o,p)=>{let[f,S]=$[p],_=ee.get(o.id),E=X.get(o.id)||[],ae=ke(s,e,o,E,_),L=v.has(o.id),Ae=`hex ${o.terrain}${_?` tiled s${_.seat}`:""}${L?" open":""}${t===o.id?" selected":""}`,Ie=L?{tabindex:o.id===Ge?"0":"-1",role:"button","aria-label":ae,"aria-pressed":t===o.id?"true":"false",onKeyDown:R=>Re(R,o.id),onFocus:()=>u(o.id)}:{};return c`<g key=${o.id} class=${Ae} data-hex=${o.id} ...${Ie}
        onClick=${()=>{u(o.id),L&&a(t===o.id?null:o.id)}}>
      <title>${ae}</title>
      <polygon points=${ze(f,S)} />
      ${o.terrain==="village"&&!_&&!E.length&&c`<circle cx=${f} cy=${S} r="0.55" class="village-dot" />`}
      ${_&&c`<text x=${f} y=${S+.3} class="tk">${ve[_.kind]||"?"}</text>
        <text x=${f} y=${S+2.1} class="ts">${_.strength??""}${e.tile_set.tiles[_.tile]&&e.tile_set.tiles[_.tile].fast?"✦":""}</text>`}
      ${Oe(f,S,E.length).map(([R,ie],z)=>c`<g key=${z} class=${`fig ${E[z]}`}>
        <circle cx=${R} cy=${ie} r="1.05" /><text x=${R} y=${ie+.55} class="fk">${we[E[z]]}</text></g>`)}
    </g>`},qe=(o,p)=>o.name&&c`<text key=${`n${o.id}`} x=${$[p][0]} y=${$[p][1]+y*.98} class="name">${o.name}</text>`,Be=q(m),I=new Map,K=new Map;m.forEach((o,p)=>{let[f,S]=Be.get(o.id);I.has(f)||I.set(f,$[p][1]),!(o.r&1)&&!K.has(S)&&K.set(S,$[p][0])});let te=G-w,se=d-T,N=l!==null?m.find(o=>o.id===l):null;return c`<figure class="sam-map" aria-label=${i("sam.map")}>
    <${$e} zoom=${n} setZoom=${r} label=${i("sam.map")}>
      <svg viewBox=${`${w.toFixed(1)} ${T.toFixed(1)} ${te.toFixed(1)} ${se.toFixed(1)}`}
          width=${Math.round(te*xe*n)} height=${Math.round(se*xe*n)} aria-label=${i("sam.map")}>
        <g class="rulers" aria-hidden="true">
          ${[...I].map(([o,p])=>c`<text key=${`r${o}`} x=${w+1.2} y=${p+.6} class="rule">${W(o)}</text>`)}
          ${[...K].map(([o,p])=>c`<text key=${`c${o}`} x=${p} y=${T+1.9} class="rule">${o+1}</text>`)}
        </g>
        ${m.map(De)}
        <g class="names" aria-hidden="true">${m.map(qe)}</g>
      </svg>
    <//>
    <figcaption class="small">
      ${N?c`<span class="hex-told" aria-live="polite">${ke(s,e,N,X.get(N.id)||[],ee.get(N.id))}</span>`:v.size>0?c`<span class="muted">${i("sam.map_hint")}</span>`:""}
    </figcaption>
    <${Te} />
  </figure>`}function Te({open:s=!1}){let e=["helmet","buddha","rice","samurai","ronin","ship","figure_swap","tile_swap"];return c`<details class="legend" open=${s}>
    <summary>${i("map.legend")}</summary>
    <p class="small">${i("sam.legend.squares")}</p>
    <p class="small">${i("sam.legend.tiles")} ${e.map(t=>c`<span key=${t} class="sym"><b>${ve[t]}</b> ${Q(t)}</span>`)}</p>
    <p class="small">${i("sam.legend.figures")} ${C.map(t=>c`<span key=${t} class=${`sym fig-sym ${t}`}><b>${we[t]}</b> ${g(t)}</span>`)}</p>
    <p class="small">${i("sam.legend.fast")}</p>
    <p class="small">${i("sam.legend.terrain")} ${["sea","land","village","city","capital"].map(t=>c`<span key=${t} class=${`sym terrain ${t}`}><i aria-hidden="true"></i> ${i(`sam.terrain.${t}`)}</span>`)}</p>
    <p class="small">${i("sam.legend.open")}</p>
    <p class="small muted">${i("map.keys")}</p>
  </details>`}function Me({view:s,index:e,picked:t=!1,onClick:a=null}){let n=s.tile_set.tiles[e],r=`tile k-${n.kind}${n.fast?" fast":""}${t?" picked":""}`,l=P(s,e);return a?c`<button type="button" class=${r} aria-pressed=${t} title=${l} onClick=${a}>${l}</button>`:c`<span class=${r} title=${l}>${l}</span>`}function Ue({counts:s}){return s?c`<span class="small">${C.map(e=>`${g(e)} ${s[e]}`).join(" · ")}</span>`:c`<span class="small muted">${i("sam.behind_screen")}</span>`}function Ve({ts:s,view:e}){let t=s.prompt||e.decision;return c`<div class="sam-seats">${e.players.map(a=>{let n=a.seat,r=a.hand.filter(l=>l!==null);return c`<section key=${n} class=${`sam-seat s${n}${n===s.you?" me":""}${t&&t.pivot===n?" pivot":""}`}
        aria-label=${i("seat.aria",{name:M(s,n),n})}>
      <header><span class=${`swatch s${n}`} aria-hidden="true"></span><b>${M(s,n)}</b>
        ${t&&t.pivot===n&&s.prompt&&c`<${U} prompt=${s.prompt} at=${s.promptAt} />`}</header>
      <div class="small">${i("sam.hand",{n:a.hand_size})} · ${i("sam.supply",{n:a.supply_size})}</div>
      ${r.length>0&&c`<div class="tiles mine">${r.map(l=>c`<${Me} key=${l} view=${e} index=${l} />`)}</div>`}
      <div><span class="small muted">${i("sam.captured")}</span> <${Ue} counts=${a.captured} /></div>
    </section>`})}</div>`}function We({ts:s,view:e}){let t=e.current;return c`<div class="sam-table">
    <div class="line"><b>${i(`sam.phase.${e.phase}`)}</b>
      ${t?c` · ${i("sam.turn_of",{n:e.turn,name:M(s,t.seat)})}`:""}</div>
    ${e.phase==="figures"&&c`<div class="small">${i("sam.figure_supply",{list:C.map(a=>`${g(a)} ${e.figure_supply[a]}`).join(" · ")})}</div>`}
    <div class="small">${i("sam.set_aside",{list:C.map(a=>`${g(a)} ${e.set_aside[a]}`).join(" · ")})}</div>
    <div class="small muted">${e.board.name} · ${e.tile_set.name}</div>
  </div>`}function Fe({ts:s,view:e}){if(!e)return c`<div class="board"><p>${i("board.waiting")}</p></div>`;let t=a=>j({type:"table/select",table:s.id,value:a});return c`<div class="sam">
    <${He} ts=${s} view=${e} selected=${H(s)} onSelect=${t} />
    <div class="sam-side"><${We} ts=${s} view=${e} /><${Ve} ts=${s} view=${e} /></div>
  </div>`}function Ze({ts:s,view:e}){let t=s.prompt,a=t.choose.count,n=`pick/${t.id}`,[r,l]=O({key:n,tiles:t.sealed?[...t.sealed]:[]}),u=r.key===n?r.tiles:t.sealed?[...t.sealed]:[],m=h=>{let k=u.includes(h)?u.filter(w=>w!==h):u.length<a?[...u,h]:u;l({key:n,tiles:k})},$=()=>V(s,{type:t.choose.command,decision:t.id,tiles:[...u].sort((h,k)=>h-k)});return c`<div class="sam-pick">
    <p class="small">${i("sam.pick_hint",{n:a,k:u.length})}</p>
    <div class="tiles" role="group" aria-label=${i("sam.pick")}>
      ${t.choose.tiles.map(h=>c`<${Me} key=${h} view=${e} index=${h} picked=${u.includes(h)} onClick=${()=>m(h)} />`)}
    </div>
    <p><button type="button" class="primary" disabled=${u.length!==a} onClick=${$}>${i("sam.pick_send",{n:a})}</button></p>
  </div>`}function Je({ts:s,view:e,answers:t,selected:a,sent:n}){let r=q(e.board.hexes),l=[...new Set(t.flatMap(F))].filter(m=>r.has(m)).sort((m,$)=>r.get(m)[0]-r.get($)[0]||r.get(m)[1]-r.get($)[1]),u=m=>j({type:"table/select",table:s.id,value:m.target.value===""?null:Number(m.target.value)});return c`<label class="field inline hex-list">${i("sam.pick_hex")}
    <select id="sam-hex" value=${a===null?"":String(a)} disabled=${n} onChange=${u}>
      <option value="">${i("sam.pick_hex_none")}</option>
      ${l.map(m=>c`<option key=${m} value=${String(m)}>${x(s,m)}</option>`)}
    </select></label>`}function Ce({ts:s}){let e=s.prompt,t=s.view;if(!e||!t){let d=s.info?s.info.status:"open";return c`<section class="decision idle" aria-label=${i("decision.aria")}>
      <p>${i(d==="open"?"decision.waiting_players":d==="finished"?"decision.over":"decision.none")}</p></section>`}let a=e.pivot===s.you,n=Se(s),r=n,l=H(s),u=l!=null&&r.some(d=>F(d).includes(l));u&&(r=r.filter(d=>F(d).includes(l)||Y.includes(d.type)));let m=n.filter(d=>F(d).length>0),$=!u&&m.length>ye;$&&(r=n.filter(d=>F(d).length===0));let h=r.length>J?r.length-J:0;h&&(r=r.slice(0,J));let k=a?i("decision.yours"):i("decision.waiting",{name:M(s,e.pivot)}),w=i(`sam.silence.${e.topic}`),G=s.sentFor===oe(s),T=Ke(s);return c`<section class=${`decision${a||T?" mine":""}`} aria-label=${i("decision.aria")}>
    <h2>${i(`sam.topic.${e.topic}`)} <span class="muted small">${e.rule}</span></h2>
    <p class="who">${k} <${U} prompt=${e} at=${s.promptAt} bank=${a} /></p>
    ${e.topic==="turn"&&a&&c`<p class="small">${i(e.plain_used?"sam.plain_used":"sam.plain_free",{n:e.placed})}</p>`}
    ${e.sealed&&c`<p class="small sealed">${i("decision.sealed",{answer:_e(s,t,{type:"ChooseTiles",tiles:e.sealed})})}</p>`}
    ${T&&!a&&c`<p class="small note">${i("decision.early")}</p>`}
    ${T&&c`<${Ze} ts=${s} view=${t} />`}
    ${$&&c`<p class="small">${i("sam.pick_first")}</p>`}
    ${m.length>ye&&c`<${Je} ts=${s} view=${t} answers=${m} selected=${u?l:null} sent=${G} />`}
    ${u&&c`<p class="small">${i("sam.on_hex",{hex:x(s,l)})}
      <button type="button" class="small" onClick=${()=>j({type:"table/select",table:s.id,value:null})}>${i("sam.show_all")}</button></p>`}
    ${r.length>0&&c`<div class="choices" role="group" aria-label=${i("decision.choices")}>
      ${r.map((d,v)=>c`<button type="button" key=${JSON.stringify(d)} class=${`choice ${d.type.toLowerCase()}`} data-key=${D(v)}
          disabled=${G} onClick=${()=>{j({type:"table/select",table:s.id,value:null}),V(s,d)}}>
        ${D(v)&&c`<kbd aria-hidden="true">${D(v)}</kbd>`}<span>${_e(s,t,d)}</span></button>`)}
    </div>`}
    ${h>0&&c`<p class="small muted">${i("sam.more",{n:h})}</p>`}
    <p class="small muted">${i("decision.silence",{what:w!==`sam.silence.${e.topic}`?w:e.silence})}</p>
  </section>`}function Ee({ts:s,view:e}){let t=e&&e.result||s.info&&s.info.result;if(!t)return null;let a=t.ranks.map((r,l)=>l).sort((r,l)=>t.ranks[r]-t.ranks[l]||r-l),n=r=>C.filter((l,u)=>t.majorities[u]===r).map(g).join(", ");return c`<section class="result" aria-label=${i("result.aria")}>
    <h2>${i("result.title")}</h2>
    <p>${i(`sam.end.${t.reason}`)} ${t.winners.length?"":i("sam.nobody_wins")}</p>
    <table>
      <thead><tr><th>${i("result.rank")}</th><th>${i("result.player")}</th>${C.map(r=>c`<th key=${r}>${g(r)}</th>`)}
        <th>${i("sam.majorities")}</th></tr></thead>
      <tbody>${a.map(r=>c`<tr key=${r} class=${r===s.you?"me":""}><td>${t.ranks[r]}</td><td>${M(s,r)}</td>
        ${t.captured[r].map((l,u)=>c`<td key=${u}>${l}</td>`)}<td>${n(r)||"–"}</td></tr>`)}</tbody>
    </table>
    <p class="actions">
      ${s.seated?c`<button type="button" class="primary" onClick=${()=>pe(s)}>
          ${i(s.rematch?"result.join_rematch":"result.rematch")}</button>`:s.rematch&&c`<a class="button primary" href=${`#/t/${s.rematch.table}`}>${i("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${s.id}`}>${i("result.replay")}</a>
      <a class="button" href="#/">${i("nav.lobby")}</a>
    </p>
  </section>`}function je(){let s=b.refs.samurai,e=b.lang;return s?c`<div class="reference">
    <p class="muted">${i("sam.ref.influence")}</p>
    <table class="scoring">
      <thead><tr><th>${i("sam.ref.tile")}</th><th>${i("sam.ref.influences")}</th></tr></thead>
      <tbody>${s.kinds.map(t=>c`<tr key=${t.kind}><td>${t.name[e]??t.name.en}</td>
        <td>${t.influences.length?t.influences.map(g).join(", "):"–"}${t.on_sea?` (${i("sam.ref.on_sea")})`:""}</td></tr>`)}</tbody>
    </table>
    <table class="scoring">
      <thead><tr><th>${i("sam.ref.seats")}</th><th>${i("sam.ref.parts")}</th><th>${i("sam.ref.per_kind")}</th></tr></thead>
      <tbody>${s.players.map(t=>c`<tr key=${t.seats}><td>${t.seats}</td><td>${t.parts.join(", ")}</td><td>${t.figures_per_kind}</td></tr>`)}</tbody>
    </table>
    <p class="muted">${i("sam.ref.end")}</p>
    <${Te} open=${!0} />
  </div>`:null}var Pe=s=>s.view&&s.view.board||b.refs.samurai&&b.refs.samurai.board,ht={name:"samurai",Stage:Fe,Decision:Ce,Result:Ee,Reference:je,reference:s=>s,narrator:(s,e)=>new B(b.cat,b.en,Pe(s),s.view&&s.view.tile_set||b.refs.samurai.tiles,e),narratorBasis:Pe,stylesheet:!0,info:{seats:{min:2,max:4,default:3},options:[],windows:!1}};export{ht as default};
