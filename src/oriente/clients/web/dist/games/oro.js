import{d as F}from"../chunks/UW5VAVFW.js";import{a as W,b as Q,c as X}from"../chunks/RJOKS4MD.js";import{C as Z,D as H,E as _,F as K,G as B,I as q,b as P,ba as J,d as M,e as A,ha as V,l as I,m as E,o as b,p as C}from"../chunks/VERQYIVV.js";var Y=e=>e.slice(0,1).toUpperCase()+e.slice(1),R=(e,s)=>e-s,U=class extends H{constructor(s,t,o,a=null){super(s,t,a),this.islands=o.islands.map(r=>r.name),this.ends=o.connections}island(s){return Number.isInteger(s)&&s>=0&&s<this.islands.length?this.islands[s]:String(s)}card(s){return s==null?this.t("oro.card_hidden"):this.island(s)}cards(s){return this.list((s||[]).map(t=>this.card(t)))}conn(s){if(!Number.isInteger(s)||s<0||s>=this.ends.length)return String(s);let[t,o]=this.ends[s];return`${this.island(t)}–${this.island(o)}`}narrate(s,t=null){if(Z.has(s.type))return this.tableEvent(s);let o=this[`o_${s.type}`];if(typeof o!="function")return this.fallback(s);let a;try{a=o.call(this,s,t)}catch{return this.fallback(s)}return a.split(`
`).map(Y).join(`
`)}o_GameStarted(s){let t=s.gods?this.t("oro.GameStarted.gods"):"",o=[this.t("oro.GameStarted",{n:s.seats,board:s.board,variant:t,first:this.seat(s.first_seat),deck:s.deck_size})],a=s.hands||[],r=a.map((l,m)=>[m,l]).filter(([,l])=>l.length&&l.every(m=>m!==null));return r.length&&r.length===a.length?o.push(this.t("oro.GameStarted.hands",{list:r.map(([l,m])=>this.t("oro.pair",{seat:this.seat(l),cards:this.cards([...m].sort(R))})).join("; ")})):r.length&&o.push(this.t("oro.GameStarted.hand",{cards:this.cards([...r[0][1]].sort(R))})),o.join(`
`)}o_GaveUp(s){return s.island===null||s.island===void 0?this.t("oro.GaveUp.hidden",{seat:this.seat(s.seat)}):this.t("oro.GaveUp",{seat:this.seat(s.seat),card:this.card(s.island)})}o_DisplayOpened(s){return this.t("oro.DisplayOpened",{cards:this.cards(s.display),deck:s.deck_size})}o_TurnBegan(s){return this.t(s.half===3?"oro.TurnBegan.final":"oro.TurnBegan",{seat:this.seat(s.seat)})}o_Built(s){let t={seat:this.seat(s.seat),conn:this.conn(s.connection)};return s.kanaloa?this.t("oro.Built.kanaloa",t):this.t("oro.Built",{card:this.card(s.island),...t})}o_Replaced(s){let t=[...(s.islands||[]).map(o=>this.card(o)),...Array(Number(s.kanaloa||0)).fill("Kanaloa")];return this.t("oro.Replaced",{seat:this.seat(s.seat),owner:this.seat(s.owner),conn:this.conn(s.connection),cards:this.list(t)})}o_ControlGained(s){let t=this.t("oro.ControlGained",{seat:this.seat(s.seat),island:this.island(s.island)}),o=s.removed||[];if(o.length){let a=[...new Set(o.map(([,r])=>r))].sort(R);t+=this.plural("oro.ControlGained.removed",o.length,{owners:this.seats(a)})}if(t+=".",s.stone){let a=s.kane?this.plural("oro.ControlGained.kane",Number(s.kane)):"",r=String(s.stone);t+=this.t("oro.ControlGained.stone",{god:r.slice(0,1).toUpperCase()+r.slice(1).toLowerCase(),kane:a})}return t}o_ControlLost(s){return this.t("oro.ControlLost",{seat:this.seat(s.seat),island:this.island(s.island)})}o_BridgeRemoved(s){return this.t("oro.BridgeRemoved",{seat:this.seat(s.seat),island:this.island(s.island),owner:this.seat(s.owner),conn:this.conn(s.connection)})}o_Discarded(s){return s.island===null||s.island===void 0?this.t("oro.Discarded.hidden",{seat:this.seat(s.seat)}):this.t("oro.Discarded",{seat:this.seat(s.seat),card:this.card(s.island)})}o_Drew(s){let t=this.seat(s.seat),o=s.lono?this.t("oro.Drew.lono"):"";if(s.from_display){let a=this.t("oro.Drew.display",{seat:t,card:this.card(s.island),lono:o});return s.refill!==null&&s.refill!==void 0&&(a+=this.t("oro.Drew.refill",{card:this.card(s.refill)})),a+"."}return s.island===null||s.island===void 0?this.t("oro.Drew.deck",{seat:t,lono:o,deck:s.deck_size}):this.t("oro.Drew.deck_seen",{seat:t,card:this.card(s.island),lono:o,deck:s.deck_size})}o_TurnEnded(s){return s.final?this.t(s.played?"oro.TurnEnded.final":"oro.TurnEnded.final_idle",{seat:this.seat(s.seat)}):""}o_Passed(s){return this.t("oro.Passed",{seat:this.seat(s.seat)})}o_Scored(s){let t=(s.islands||[]).map(([r,l,m])=>this.t("oro.Scored.item",{island:this.island(r),seat:this.seat(l),points:m})),o=this.t(s.final?"oro.Scored.final":"oro.Scored.first",{items:t.length?t.join(this.t("sep")):this.t("oro.Scored.none")}),a=(s.scores||[]).map((r,l)=>this.t("oro.pair",{seat:this.seat(l),cards:r})).join(this.t("sep"));return`${o}
${this.t("oro.Scored.totals",{list:a})}`}o_Reshuffled(s){return this.t("oro.Reshuffled",{deck:s.deck_size,cards:this.cards(s.display)})}o_FinalRoundBegan(){return this.t("oro.FinalRoundBegan")}o_KuLooked(s){let t={seat:this.seat(s.seat),target:this.seat(s.target)},o=s.hand||[];return o.length&&o.every(a=>a!==null)?this.t("oro.KuLooked.seen",{cards:this.cards([...o].sort(R)),...t}):this.t("oro.KuLooked",t)}o_KuTook(s){return this.t("oro.KuTook",{seat:this.seat(s.seat),target:this.seat(s.target),card:this.card(s.island)})}o_PeleTook(s){let t=s.taken||[],o=this.t("oro.PeleTook",{seat:this.seat(s.seat),from_:this.seats(t.map(([r])=>r))}),a=t.filter(([,r])=>r!==null);return a.length&&(o+=this.t("oro.PeleTook.seen",{list:a.map(([r,l])=>this.t("oro.pair",{seat:this.seat(r),cards:this.card(l)})).join(this.t("sep"))})),o+"."}o_PeleGave(s){return this.t("oro.PeleGave",{seat:this.seat(s.seat),to:this.seat(s.to),card:this.card(s.island)})}o_LonoUsed(s){return this.t("oro.LonoUsed",{seat:this.seat(s.seat)})}o_GameEnded(s){let t=s.scores||[],o=s.winner,a=Number.isInteger(o)&&o<t.length?t[o]:"?";return this.t(s.reason==="eleven"?"oro.GameEnded.eleven":"oro.GameEnded",{winner:Y(this.seat(o)),points:a})}};var i=M.bind(P),fs={small:3.4,large:4.6,main:6.6},gs=["","3 1.4","0.9 1.1","3 1 0.9 1"],N={kane:"K",kanaloa:"Ka",ku:"Ku",pele:"P",lono:"L"},ss=5.6,ts=["Draw","EndTurn","Pass","GiveUp","Remove","Take","GiveBack"],n=(e,s)=>b.t(e,s);function D(e,s){return s==null?"?":e.board.islands[s].name}function v(e,s){let[t,o]=e.board.connections[s];return`${D(e,t)}–${D(e,o)}`}function es(e,s,t){let o=a=>D(s,a);switch(t.type){case"GiveUp":return n("oro.choice.GiveUp",{card:o(t.island)});case"Build":return t.kanaloa?n("oro.choice.Build_kanaloa",{conn:v(s,t.connection)}):n("oro.choice.Build",{conn:v(s,t.connection),card:o(t.island)});case"Replace":return n("oro.choice.Replace",{conn:v(s,t.connection),cards:[...t.islands.map(o),...Array(t.kanaloa).fill("Kanaloa")].join(" + ")});case"Discard":return n("oro.choice.Discard",{card:o(t.island)});case"Draw":return t.island===null?n("oro.choice.Draw_deck"):n("oro.choice.Draw",{card:o(t.island)});case"EndTurn":return n("oro.choice.EndTurn");case"Pass":return n("oro.choice.Pass");case"Remove":return n("oro.choice.Remove",{conn:v(s,t.connection)});case"UseKu":return n("oro.choice.UseKu",{name:_(e,t.target)});case"Take":return n("oro.choice.Take",{card:o(t.island)});case"UsePele":return n("oro.choice.UsePele");case"GiveBack":return n("oro.choice.GiveBack",{card:o(t.island)});case"UseLono":return t.island===null?n("oro.choice.UseLono_deck"):n("oro.choice.UseLono",{card:o(t.island)});default:return t.type}}function os(e){let s=e.prompt;if(!s||!e.seated)return[];if(!(s.pivot===e.you||(s.early||[]).includes(e.you)&&!s.sealed))return[];let o=(s.legal||[]).filter(r=>r.decision===s.id),a=r=>{let l=ts.indexOf(r.type);return l<0?ts.length:l};return o.map((r,l)=>[r,l]).sort((r,l)=>a(r[0])-a(l[0])||r[1]-l[1]).map(([r])=>r)}function ns(e){let s=b.refs.oro,t=s&&s.gods?s.gods.find(o=>o.god===e):null;return t?t.name:e.slice(0,1).toUpperCase()+e.slice(1)}function ys({ts:e,view:s,selected:t,onSelect:o}){let[a,r]=W("oro"),[l,m]=A(null),{islands:u,connections:f}=s.board,$=u.map((c,h)=>c.pos||[50+40*Math.cos(2*Math.PI*h/u.length),50+40*Math.sin(2*Math.PI*h/u.length)]),y=new Set(os(e).filter(c=>c.connection!==void 0).map(c=>c.connection)),G=u.map(()=>({}));f.forEach(([c,h],d)=>{let p=s.bridges[d];p!==null&&(G[c][p]=(G[c][p]||0)+1,G[h][p]=(G[h][p]||0)+1)});let T=c=>_(e,c),z=f.map(([c,h],d)=>[d,($[c][0]+$[h][0])/2,($[c][1]+$[h][1])/2]).filter(c=>y.has(c[0])),ps=y.has(t)?t:z.length?z[0][0]:null,hs=(c,h)=>{if(c.key==="Enter"||c.key===" ")c.preventDefault(),o(t===h?null:h);else if(c.key.startsWith("Arrow")){c.preventDefault();let d=X(z,h,c.key),p=d===null?null:document.querySelector(`.oro-map [data-conn="${d}"]`);p&&(p.focus(),m(d))}},us=([c,h],d)=>{let p=s.bridges[d],[g,k]=$[c],[S,w]=$[h],x=p===null?n("oro.conn_free",{conn:v(s,d)}):n("oro.conn_bridge",{conn:v(s,d),name:T(p)}),O=`conn${p===null?" free":` bridge s${p}`}${y.has(d)?" open":""}${t===d?" selected":""}`,j=y.has(d)?{tabindex:d===ps?"0":"-1",role:"button","aria-label":x,"aria-pressed":t===d?"true":"false",onKeyDown:ms=>hs(ms,d),onFocus:()=>m(d)}:{};return i`<g key=${`c${d}`} class=${O} data-conn=${d} ...${j} onClick=${y.has(d)?()=>o(t===d?null:d):void 0}>
      <title>${x}</title>
      <line x1=${g} y1=${k} x2=${S} y2=${w} class="hit" />
      <line x1=${g} y1=${k} x2=${S} y2=${w} class="shown" stroke-dasharray=${p===null?void 0:gs[p]||void 0} />
    </g>`},$s=(c,h)=>{let[d,p]=$[h],g=fs[c.size]||4,k=s.control[h],S=Object.entries(G[h]).map(([O,j])=>`${T(Number(O))} ×${j}`).join(", "),w=n("oro.island_title",{name:c.name,size:n(`oro.size.${c.size}`),places:c.places})+(S?` — ${S}`:"")+(k!==null?` — ${n("oro.control_by",{name:T(k)})}`:""),x=s.stones?s.stones[h]:null;return i`<g key=${`i${h}`} class=${`island i-${c.size}${k!==null?` ctrl s${k}`:""}`} data-island=${h}>
      <title>${w}</title>
      <circle cx=${d} cy=${p} r=${g} />
      <text x=${d} y=${p+g+2.6} class="name">${c.name}</text>
      <text x=${d} y=${p+.9} class="places">${c.places}</text>
      ${k!==null&&i`<g class=${`marker s${k}`}><rect x=${d+g*.55} y=${p-g-1.6} width="3.2" height="3.2" rx="0.5" />
        <text x=${d+g*.55+1.6} y=${p-g+.85} class="mk">${k}</text></g>`}
      ${x&&i`<g class="god"><circle cx=${d-g*.8} cy=${p-g*.8} r="2.3" />
        <text x=${d-g*.8} y=${p-g*.8+.8} class="gd">${N[x]||"?"}</text><title>${ns(x)}</title></g>`}
    </g>`};return i`<figure class="oro-map" aria-label=${n("oro.map")}>
    <${Q} zoom=${a} setZoom=${r} label=${n("oro.map")}>
      <svg viewBox="-6 -6 112 114" width=${Math.round(112*ss*a)} height=${Math.round(114*ss*a)} aria-label=${n("oro.map")}>
        <g class="conns">${f.map(us)}</g>
        <g class="islands">${u.map($s)}</g>
      </svg>
    <//>
    <figcaption class="small">${l!==null&&y.has(l)?i`<span class="conn-told" aria-live="polite">${v(s,l)}</span>`:y.size>0?i`<span class="muted">${n("oro.map_hint")}</span>`:""}</figcaption>
    <${as} gods=${!!s.gods} />
  </figure>`}function as({gods:e=!0,open:s=!1}){return i`<details class="legend" open=${s}>
    <summary>${n("map.legend")}</summary>
    <p class="small">${n("oro.legend.places")}</p>
    <p class="small">${n("oro.legend.marker")}</p>
    <p class="small">${n("oro.legend.bridges")}</p>
    ${e&&i`<p class="small">${n("oro.legend.gods")} ${Object.entries(N).map(([t,o])=>i`<span key=${t} class="sym god-sym"><b>${o}</b> ${ns(t)}</span>`)}</p>`}
    <p class="small">${n("oro.legend.dots")}</p>
    <p class="small">${n("oro.legend.hidden")}</p>
    <p class="small muted">${n("map.keys")}</p>
  </details>`}function L({view:e,island:s,knownTo:t=null,ts:o=null}){let a=e.board.islands[s].size,r=t===null?null:t.length?n("oro.known_to",{list:t.map(l=>_(o,l)).join(", ")}):n("oro.known_to_none");return i`<span class=${`chip i-${a}`} title=${r||""}>${D(e,s)}
    ${t&&t.map(l=>i`<span key=${l} class=${`dot s${l}`} aria-hidden="true"></span>`)}
    ${r&&i`<span class="sr-only">${r}</span>`}</span>`}function ks({ts:e,view:s}){let t=e.prompt||s.decision;return i`<div class="oro-seats">${s.hands.map(o=>{let a=o.seat,r=s.control.filter(u=>u===a).length,l=s.held?Object.entries(s.held[a]).filter(([,u])=>u>0):[],m=o.cards?0:o.size-o.known.length;return i`<section key=${a} class=${`oro-seat s${a}${a===e.you?" me":""}${t&&t.pivot===a?" pivot":""}`}
        aria-label=${n("seat.aria",{name:_(e,a),n:a})}>
      <header><span class=${`swatch s${a}`} aria-hidden="true"></span><b>${_(e,a)}</b>
        ${e.info&&e.info.seats&&e.info.seats[a]&&i`<${F} account=${e.info.seats[a].account} />`}
        <span class="pts">${n("oro.score",{n:s.scores[a]})}</span>
        <span class="small muted">${n("oro.islands",{n:r})}</span>
        ${t&&t.pivot===a&&e.prompt&&i`<${K} prompt=${e.prompt} at=${e.promptAt} />`}</header>
      <div class="small">${n("oro.hand",{n:o.size})}</div>
      ${o.cards?i`<div class="chips mine">${o.cards.map((u,f)=>i`<${L} key=${f} view=${s} island=${u} knownTo=${o.known_to[f]} ts=${e} />`)}</div>`:i`<div class="chips">${o.known.map((u,f)=>i`<${L} key=${f} view=${s} island=${u} />`)}
            ${m>0&&i`<span class="chip unknown" title=${n("oro.unknown_cards",{n:m})}>? ×${m}</span>`}</div>`}
      ${l.length>0&&i`<div class="small">${n("oro.stones",{list:l.map(([u,f])=>`${u.slice(0,1).toUpperCase()}${u.slice(1)}${f>1?` ×${f}`:""}`).join(", ")})}</div>`}
    </section>`})}</div>`}function bs({ts:e,view:s}){let t=s.discard.open.map((a,r)=>[r,a]).filter(([,a])=>a>0),o=s.final;return i`<div class="oro-table">
    <div class="line"><b>${n(`oro.half_${s.half}`)}</b>${s.active!==null?i` · ${n("oro.turn_of",{name:_(e,s.active)})}`:""}
      ${s.gods&&i` · <span class="tag">${n("oro.gods")}</span>`}</div>
    <div class="oro-display"><span class="small muted">${n("oro.display")}</span>
      <div class="chips">${s.display.map((a,r)=>i`<${L} key=${r} view=${s} island=${a} />`)}</div>
      <span class="small">${n("oro.deck",{n:s.deck_size})}</span></div>
    <div class="oro-discard"><span class="small muted">${n("oro.discard")}</span>
      <div class="chips">${t.map(([a,r])=>i`<span key=${a} class="chip played">${D(s,a)}${r>1?` ×${r}`:""}</span>`)}
        ${s.discard.hidden>0&&i`<span class="chip hidden" title=${n("oro.hidden_cards",{n:s.discard.hidden})}>??? ×${s.discard.hidden}</span>`}</div>
      ${s.my_hidden&&s.my_hidden.length>0&&i`<span class="small">${n("oro.my_hidden",{list:s.my_hidden.map(a=>D(s,a)).join(", ")})}</span>`}</div>
    ${o&&i`<div class="small">${n("oro.final_owed",{list:o.owed.map(a=>_(e,a)).join(", ")||"–"})}</div>`}
  </div>`}function rs({ts:e,view:s}){if(!s)return i`<div class="board"><p>${n("board.waiting")}</p></div>`;let t=o=>C({type:"table/select",table:e.id,value:o});return i`<div class="oro">
    <${ys} ts=${e} view=${s} selected=${E(e)} onSelect=${t} />
    <div class="oro-side"><${bs} ts=${e} view=${s} /><${ks} ts=${e} view=${s} /></div>
  </div>`}function is({ts:e}){let s=e.prompt,t=e.view;if(!s||!t){let $=e.info?e.info.status:"open";return i`<section class="decision idle" aria-label=${n("decision.aria")}>
      <p>${n($==="open"?"decision.waiting_players":$==="finished"?"decision.over":"decision.none")}</p></section>`}let o=s.pivot===e.you,a=os(e),r=E(e),l=r!=null&&a.some($=>$.connection===r);l&&(a=a.filter($=>$.connection===r));let m=o?n("decision.yours"):n("decision.waiting",{name:_(e,s.pivot)}),u=n(`oro.silence.${s.topic}`),f=e.sentFor===I(e);return i`<section class=${`decision${o?" mine":""}`} aria-label=${n("decision.aria")}>
    <h2>${n(`oro.topic.${s.topic}`)} <span class="muted small">${s.rule}</span></h2>
    <p class="who">${m} <${K} prompt=${s} at=${e.promptAt} bank=${o} /></p>
    ${s.limit!==void 0&&o&&i`<p class="small">${n("oro.limit",{n:s.limit})}</p>`}
    ${s.sealed&&i`<p class="small sealed">${n("decision.sealed",{answer:es(e,t,s.sealed)})}</p>`}
    ${!o&&a.length>0&&i`<p class="small note">${n("decision.early")}</p>`}
    ${l&&i`<p class="small">${n("oro.on_conn",{conn:v(t,r)})}
      <button type="button" class="small" onClick=${()=>C({type:"table/select",table:e.id,value:null})}>${n("oro.show_all")}</button></p>`}
    ${a.length>0&&i`<div class="choices" role="group" aria-label=${n("decision.choices")}>
      ${a.map(($,y)=>i`<button type="button" key=${JSON.stringify($)} class=${`choice ${$.type.toLowerCase()}`} data-key=${B(y)}
          disabled=${f} onClick=${()=>{C({type:"table/select",table:e.id,value:null}),J(e,$)}}>
        ${B(y)&&i`<kbd aria-hidden="true">${B(y)}</kbd>`}<span>${es(e,t,$)}</span></button>`)}
    </div>`}
    <p class="small muted">${n("decision.silence",{what:u!==`oro.silence.${s.topic}`?u:s.silence})}</p>
  </section>`}function ls({ts:e,view:s}){let t=s&&s.result||e.info&&e.info.result;if(!t)return null;let o=t.scores.map((a,r)=>r).sort((a,r)=>t.ranks[a]-t.ranks[r]||a-r);return i`<section class="result" aria-label=${n("result.aria")}>
    <h2>${n("result.title")}</h2>
    <p>${n(t.reason==="eleven"?"oro.result_eleven":"oro.result_scoring")}</p>
    <table>
      <thead><tr><th>${n("result.rank")}</th><th>${n("result.player")}</th><th>${n("result.score")}</th></tr></thead>
      <tbody>${o.map(a=>i`<tr key=${a} class=${a===e.you?"me":""}><td>${t.ranks[a]}</td><td>${_(e,a)}</td><td>${t.scores[a]}</td></tr>`)}</tbody>
    </table>
    <p class="actions">
      ${e.seated?i`<button type="button" class="primary" onClick=${()=>V(e)}>
          ${n(e.rematch?"result.join_rematch":"result.rematch")}</button>`:e.rematch&&i`<a class="button primary" href=${`#/t/${e.rematch.table}`}>${n("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${e.id}`}>${n("result.replay")}</a>
      <a class="button" href="#/">${n("nav.lobby")}</a>
    </p>
    <${q} ts=${e} />
  </section>`}function cs(){let e=b.refs.oro,s=b.lang;return e?i`<div class="reference">
    <p class="muted">${n("oro.ref.scoring")}</p>
    <table class="scoring">
      <thead><tr><th>${n("oro.ref.island")}</th><th>${n("oro.ref.bridges")}</th><th>${n("oro.ref.first")}</th><th>${n("oro.ref.final")}</th></tr></thead>
      <tbody>${e.sizes.flatMap(t=>t.scoring.map((o,a)=>i`<tr key=${`${t.size}${o.bridges}`}>
        <td>${a===0?`${n(`oro.size.${t.size}`)} (${t.places})`:""}</td><td>${o.bridges}</td><td>${o.first}</td><td>${o.final}</td></tr>`))}</tbody>
    </table>
    <h3>${n("oro.gods")}</h3>
    <ul class="kinds">${e.gods.map(t=>i`<li key=${t.god} id=${`ref-${t.god}`}><div>
      <h3><span class="god-letter">${N[t.god]||""}</span> ${t.name} <span class="muted">×${t.count} · ${t.rule}</span></h3><p>${t.text[s]??t.text.en}</p></div></li>`)}</ul>
    <${as} open=${!0} />
  </div>`:null}var ds=e=>e.view&&e.view.board||b.refs.oro&&b.refs.oro.board,Ls={name:"oro",Stage:rs,Decision:is,Result:ls,Reference:cs,reference:e=>e,narrator:(e,s)=>new U(b.cat,b.en,ds(e),s),narratorBasis:ds,stylesheet:!0,info:{seats:{min:2,max:4,default:3},options:[{name:"gods",type:"bool",default:!1,suggested:!0}],windows:!1}};export{Ls as default};
