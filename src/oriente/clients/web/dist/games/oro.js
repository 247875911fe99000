import{d as P}from"../chunks/W7DPR5JS.js";import{B as N,C as E,D as k,E as z,F as K,Q as A,W as I,b as j,d as T,k as L,l as U,n as b,o as w}from"../chunks/UWPSS356.js";var M=e=>e.slice(0,1).toUpperCase()+e.slice(1),C=(e,s)=>e-s,R=class extends E{constructor(s,t,o,n=null){super(s,t,n),this.islands=o.islands.map(r=>r.name),this.ends=o.connections}island(s){return Number.isInteger(s)&&s>=0&&s<this.islands.length?this.islands[s]:String(s)}card(s){return s==null?this.t("oro.card_hidden"):this.island(s)}cards(s){return this.list((s||[]).map(t=>this.card(t)))}conn(s){if(!Number.isInteger(s)||s<0||s>=this.ends.length)return String(s);let[t,o]=this.ends[s];return`${this.island(t)}–${this.island(o)}`}narrate(s,t=null){if(N.has(s.type))return this.tableEvent(s);let o=this[`o_${s.type}`];if(typeof o!="function")return this.fallback(s);let n;try{n=o.call(this,s,t)}catch{return this.fallback(s)}return n.split(`
`).map(M).join(`
`)}o_GameStarted(s){let t=s.gods?this.t("oro.GameStarted.gods"):"",o=[this.t("oro.GameStarted",{n:s.seats,board:s.board,variant:t,first:this.seat(s.first_seat),deck:s.deck_size})],n=s.hands||[],r=n.map((l,$)=>[$,l]).filter(([,l])=>l.length&&l.every($=>$!==null));return r.length&&r.length===n.length?o.push(this.t("oro.GameStarted.hands",{list:r.map(([l,$])=>this.t("oro.pair",{seat:this.seat(l),cards:this.cards([...$].sort(C))})).join("; ")})):r.length&&o.push(this.t("oro.GameStarted.hand",{cards:this.cards([...r[0][1]].sort(C))})),o.join(`
`)}o_GaveUp(s){return s.island===null||s.island===void 0?this.t("oro.GaveUp.hidden",{seat:this.seat(s.seat)}):this.t("oro.GaveUp",{seat:this.seat(s.seat),card:this.card(s.island)})}o_DisplayOpened(s){return this.t("oro.DisplayOpened",{cards:this.cards(s.display),deck:s.deck_size})}o_TurnBegan(s){return this.t(s.half===3?"oro.TurnBegan.final":"oro.TurnBegan",{seat:this.seat(s.seat)})}o_Built(s){let t={seat:this.seat(s.seat),conn:this.conn(s.connection)};return s.kanaloa?this.t("oro.Built.kanaloa",t):this.t("oro.Built",{card:this.card(s.island),...t})}o_Replaced(s){let t=[...(s.islands||[]).map(o=>this.card(o)),...Array(Number(s.kanaloa||0)).fill("Kanaloa")];return this.t("oro.Replaced",{seat:this.seat(s.seat),owner:this.seat(s.owner),conn:this.conn(s.connection),cards:this.list(t)})}o_ControlGained(s){let t=this.t("oro.ControlGained",{seat:this.seat(s.seat),island:this.island(s.island)}),o=s.removed||[];if(o.length){let n=[...new Set(o.map(([,r])=>r))].sort(C);t+=this.plural("oro.ControlGained.removed",o.length,{owners:this.seats(n)})}if(t+=".",s.stone){let n=s.kane?this.plural("oro.ControlGained.kane",Number(s.kane)):"",r=String(s.stone);t+=this.t("oro.ControlGained.stone",{god:r.slice(0,1).toUpperCase()+r.slice(1).toLowerCase(),kane:n})}return t}o_ControlLost(s){return this.t("oro.ControlLost",{seat:this.seat(s.seat),island:this.island(s.island)})}o_BridgeRemoved(s){return this.t("oro.BridgeRemoved",{seat:this.seat(s.seat),island:this.island(s.island),owner:this.seat(s.owner),conn:this.conn(s.connection)})}o_Discarded(s){return s.island===null||s.island===void 0?this.t("oro.Discarded.hidden",{seat:this.seat(s.seat)}):this.t("oro.Discarded",{seat:this.seat(s.seat),card:this.card(s.island)})}o_Drew(s){let t=this.seat(s.seat),o=s.lono?this.t("oro.Drew.lono"):"";if(s.from_display){let n=this.t("oro.Drew.display",{seat:t,card:this.card(s.island),lono:o});return s.refill!==null&&s.refill!==void 0&&(n+=this.t("oro.Drew.refill",{card:this.card(s.refill)})),n+"."}return s.island===null||s.island===void 0?this.t("oro.Drew.deck",{seat:t,lono:o,deck:s.deck_size}):this.t("oro.Drew.deck_seen",{seat:t,card:this.card(s.island),lono:o,deck:s.deck_size})}o_TurnEnded(){return""}o_Passed(s){return this.t("oro.Passed",{seat:this.seat(s.seat)})}o_Scored(s){let t=(s.islands||[]).map(([r,l,$])=>this.t("oro.Scored.item",{island:this.island(r),seat:this.seat(l),points:$})),o=this.t(s.final?"oro.Scored.final":"oro.Scored.first",{items:t.length?t.join(this.t("sep")):this.t("oro.Scored.none")}),n=(s.scores||[]).map((r,l)=>this.t("oro.pair",{seat:this.seat(l),cards:r})).join(this.t("sep"));return`${o}
${this.t("oro.Scored.totals",{list:n})}`}o_Reshuffled(s){return this.t("oro.Reshuffled",{deck:s.deck_size,cards:this.cards(s.display)})}o_FinalRoundBegan(){return this.t("oro.FinalRoundBegan")}o_KuLooked(s){let t={seat:this.seat(s.seat),target:this.seat(s.target)},o=s.hand||[];return o.length&&o.every(n=>n!==null)?this.t("oro.KuLooked.seen",{cards:this.cards([...o].sort(C)),...t}):this.t("oro.KuLooked",t)}o_KuTook(s){return this.t("oro.KuTook",{seat:this.seat(s.seat),target:this.seat(s.target),card:this.card(s.island)})}o_PeleTook(s){let t=s.taken||[],o=this.t("oro.PeleTook",{seat:this.seat(s.seat),from_:this.seats(t.map(([r])=>r))}),n=t.filter(([,r])=>r!==null);return n.length&&(o+=this.t("oro.PeleTook.seen",{list:n.map(([r,l])=>this.t("oro.pair",{seat:this.seat(r),cards:this.card(l)})).join(this.t("sep"))})),o+"."}o_PeleGave(s){return this.t("oro.PeleGave",{seat:this.seat(s.seat),to:this.seat(s.to),card:this.card(s.island)})}o_LonoUsed(s){return this.t("oro.LonoUsed",{seat:this.seat(s.seat)})}o_GameEnded(s){let t=s.scores||[],o=s.winner,n=Number.isInteger(o)&&o<t.length?t[o]:"?";return this.t(s.reason==="eleven"?"oro.GameEnded.eleven":"oro.GameEnded",{winner:M(this.seat(o)),points:n})}};var i=T.bind(j),Z={small:3.4,large:4.6,main:6.6},ss=["","3 1.4","0.9 1.1","3 1 0.9 1"],ts={kane:"K",kanaloa:"Ka",ku:"Ku",pele:"P",lono:"L"},F=["Draw","EndTurn","Pass","GiveUp","Remove","Take","GiveBack"],a=(e,s)=>b.t(e,s);function v(e,s){return s==null?"?":e.board.islands[s].name}function _(e,s){let[t,o]=e.board.connections[s];return`${v(e,t)}–${v(e,o)}`}function H(e,s,t){let o=n=>v(s,n);switch(t.type){case"GiveUp":return a("oro.choice.GiveUp",{card:o(t.island)});case"Build":return t.kanaloa?a("oro.choice.Build_kanaloa",{conn:_(s,t.connection)}):a("oro.choice.Build",{conn:_(s,t.connection),card:o(t.island)});case"Replace":return a("oro.choice.Replace",{conn:_(s,t.connection),cards:[...t.islands.map(o),...Array(t.kanaloa).fill("Kanaloa")].join(" + ")});case"Discard":return a("oro.choice.Discard",{card:o(t.island)});case"Draw":return t.island===null?a("oro.choice.Draw_deck"):a("oro.choice.Draw",{card:o(t.island)});case"EndTurn":return a("oro.choice.EndTurn");case"Pass":return a("oro.choice.Pass");case"Remove":return a("oro.choice.Remove",{conn:_(s,t.connection)});case"UseKu":return a("oro.choice.UseKu",{name:k(e,t.target)});case"Take":return a("oro.choice.Take",{card:o(t.island)});case"UsePele":return a("oro.choice.UsePele");case"GiveBack":return a("oro.choice.GiveBack",{card:o(t.island)});case"UseLono":return t.island===null?a("oro.choice.UseLono_deck"):a("oro.choice.UseLono",{card:o(t.island)});default:return t.type}}function J(e){let s=e.prompt;if(!s||!e.seated)return[];if(!(s.pivot===e.you||(s.early||[]).includes(e.you)&&!s.sealed))return[];let o=(s.legal||[]).filter(r=>r.decision===s.id),n=r=>{let l=F.indexOf(r.type);return l<0?F.length:l};return o.map((r,l)=>[r,l]).sort((r,l)=>n(r[0])-n(l[0])||r[1]-l[1]).map(([r])=>r)}function es({ts:e,view:s,selected:t,onSelect:o}){let{islands:n,connections:r}=s.board,l=n.map((c,u)=>c.pos||[50+40*Math.cos(2*Math.PI*u/n.length),50+40*Math.sin(2*Math.PI*u/n.length)]),$=new Set(J(e).filter(c=>c.connection!==void 0).map(c=>c.connection)),p=n.map(()=>({}));r.forEach(([c,u],d)=>{let h=s.bridges[d];h!==null&&(p[c][h]=(p[c][h]||0)+1,p[u][h]=(p[u][h]||0)+1)});let m=c=>k(e,c),f=([c,u],d)=>{let h=s.bridges[d],[g,y]=l[c],[G,S]=l[u],D=h===null?a("oro.conn_free",{conn:_(s,d)}):a("oro.conn_bridge",{conn:_(s,d),name:m(h)}),B=`conn${h===null?" free":` bridge s${h}`}${$.has(d)?" open":""}${t===d?" selected":""}`;return i`<g key=${`c${d}`} class=${B} data-conn=${d} onClick=${$.has(d)?()=>o(t===d?null:d):void 0}>
      <title>${D}</title>
      <line x1=${g} y1=${y} x2=${G} y2=${S} class="hit" />
      <line x1=${g} y1=${y} x2=${G} y2=${S} class="shown" stroke-dasharray=${h===null?void 0:ss[h]||void 0} />
    </g>`},x=(c,u)=>{let[d,h]=l[u],g=Z[c.size]||4,y=s.control[u],G=Object.entries(p[u]).map(([B,Y])=>`${m(Number(B))} ×${Y}`).join(", "),S=a("oro.island_title",{name:c.name,size:a(`oro.size.${c.size}`),places:c.places})+(G?` — ${G}`:"")+(y!==null?` — ${a("oro.control_by",{name:m(y)})}`:""),D=s.stones?s.stones[u]:null;return i`<g key=${`i${u}`} class=${`island i-${c.size}${y!==null?` ctrl s${y}`:""}`} data-island=${u}>
      <title>${S}</title>
      <circle cx=${d} cy=${h} r=${g} />
      <text x=${d} y=${h+g+2.6} class="name">${c.name}</text>
      <text x=${d} y=${h+.9} class="places">${c.places}</text>
      ${y!==null&&i`<g class=${`marker s${y}`}><rect x=${d+g*.55} y=${h-g-1.6} width="3.2" height="3.2" rx="0.5" />
        <text x=${d+g*.55+1.6} y=${h-g+.85} class="mk">${y}</text></g>`}
      ${D&&i`<g class="god"><circle cx=${d-g*.8} cy=${h-g*.8} r="1.9" />
        <text x=${d-g*.8} y=${h-g*.8+.75} class="gd">${ts[D]||"?"}</text><title>${D}</title></g>`}
    </g>`};return i`<figure class="oro-map" aria-label=${a("oro.map")}>
    <svg viewBox="-6 -6 112 114" role="img" aria-label=${a("oro.map")}>
      <g class="conns">${r.map(f)}</g>
      <g class="islands">${n.map(x)}</g>
    </svg>
    ${$.size>0&&i`<figcaption class="small muted">${a("oro.map_hint")}</figcaption>`}
  </figure>`}function O({view:e,island:s,knownTo:t=null,ts:o=null}){let n=e.board.islands[s].size,r=t===null?null:t.length?a("oro.known_to",{list:t.map(l=>k(o,l)).join(", ")}):a("oro.known_to_none");return i`<span class=${`chip i-${n}`} title=${r||""}>${v(e,s)}
    ${t&&t.map(l=>i`<span key=${l} class=${`dot s${l}`} aria-hidden="true"></span>`)}
    ${r&&i`<span class="sr-only">${r}</span>`}</span>`}function ns({ts:e,view:s}){let t=e.prompt||s.decision;return i`<div class="oro-seats">${s.hands.map(o=>{let n=o.seat,r=s.control.filter(p=>p===n).length,l=s.held?Object.entries(s.held[n]).filter(([,p])=>p>0):[],$=o.cards?0:o.size-o.known.length;return i`<section key=${n} class=${`oro-seat s${n}${n===e.you?" me":""}${t&&t.pivot===n?" pivot":""}`}
        aria-label=${a("seat.aria",{name:k(e,n),n})}>
      <header><span class=${`swatch s${n}`} aria-hidden="true"></span><b>${k(e,n)}</b>
        ${e.info&&e.info.seats&&e.info.seats[n]&&i`<${P} account=${e.info.seats[n].account} />`}
        <span class="pts">${a("oro.score",{n:s.scores[n]})}</span>
        <span class="small muted">${a("oro.islands",{n:r})}</span>
        ${t&&t.pivot===n&&e.prompt&&i`<${z} prompt=${e.prompt} at=${e.promptAt} />`}</header>
      <div class="small">${a("oro.hand",{n:o.size})}</div>
      ${o.cards?i`<div class="chips mine">${o.cards.map((p,m)=>i`<${O} key=${m} view=${s} island=${p} knownTo=${o.known_to[m]} ts=${e} />`)}</div>`:i`<div class="chips">${o.known.map((p,m)=>i`<${O} key=${m} view=${s} island=${p} />`)}
            ${$>0&&i`<span class="chip unknown" title=${a("oro.unknown_cards",{n:$})}>? ×${$}</span>`}</div>`}
      ${l.length>0&&i`<div class="small">${a("oro.stones",{list:l.map(([p,m])=>`${p.slice(0,1).toUpperCase()}${p.slice(1)}${m>1?` ×${m}`:""}`).join(", ")})}</div>`}
    </section>`})}</div>`}function os({ts:e,view:s}){let t=s.discard.open.map((n,r)=>[r,n]).filter(([,n])=>n>0),o=s.final;return i`<div class="oro-table">
    <div class="line"><b>${a(`oro.half_${s.half}`)}</b>${s.active!==null?i` · ${a("oro.turn_of",{name:k(e,s.active)})}`:""}
      ${s.gods&&i` · <span class="tag">${a("oro.gods")}</span>`}</div>
    <div class="oro-display"><span class="small muted">${a("oro.display")}</span>
      <div class="chips">${s.display.map((n,r)=>i`<${O} key=${r} view=${s} island=${n} />`)}</div>
      <span class="small">${a("oro.deck",{n:s.deck_size})}</span></div>
    <div class="oro-discard"><span class="small muted">${a("oro.discard")}</span>
      <div class="chips">${t.map(([n,r])=>i`<span key=${n} class="chip played">${v(s,n)}${r>1?` ×${r}`:""}</span>`)}
        ${s.discard.hidden>0&&i`<span class="chip hidden" title=${a("oro.hidden_cards",{n:s.discard.hidden})}>??? ×${s.discard.hidden}</span>`}</div>
      ${s.my_hidden&&s.my_hidden.length>0&&i`<span class="small">${a("oro.my_hidden",{list:s.my_hidden.map(n=>v(s,n)).join(", ")})}</span>`}</div>
    ${o&&i`<div class="small">${a("oro.final_owed",{list:o.owed.map(n=>k(e,n)).join(", ")||"–"})}</div>`}
  </div>`}function V({ts:e,view:s}){if(!s)return i`<div class="board"><p>${a("board.waiting")}</p></div>`;let t=o=>w({type:"table/select",table:e.id,value:o});return i`<div class="oro">
    <${es} ts=${e} view=${s} selected=${U(e)} onSelect=${t} />
    <div class="oro-side"><${os} ts=${e} view=${s} /><${ns} ts=${e} view=${s} /></div>
  </div>`}function q({ts:e}){let s=e.prompt,t=e.view;if(!s||!t){let f=e.info?e.info.status:"open";return i`<section class="decision idle" aria-label=${a("decision.aria")}>
      <p>${a(f==="open"?"decision.waiting_players":f==="finished"?"decision.over":"decision.none")}</p></section>`}let o=s.pivot===e.you,n=J(e),r=U(e),l=r!=null&&n.some(f=>f.connection===r);l&&(n=n.filter(f=>f.connection===r));let $=o?a("decision.yours"):a("decision.waiting",{name:k(e,s.pivot)}),p=a(`oro.silence.${s.topic}`),m=e.sentFor===L(e);return i`<section class=${`decision${o?" mine":""}`} aria-label=${a("decision.aria")}>
    <h2>${a(`oro.topic.${s.topic}`)} <span class="muted small">${s.rule}</span></h2>
    <p class="who">${$} <${z} prompt=${s} at=${e.promptAt} bank=${o} /></p>
    ${s.limit!==void 0&&o&&i`<p class="small">${a("oro.limit",{n:s.limit})}</p>`}
    ${s.sealed&&i`<p class="small sealed">${a("decision.sealed",{answer:H(e,t,s.sealed)})}</p>`}
    ${!o&&n.length>0&&i`<p class="small note">${a("decision.early")}</p>`}
    ${l&&i`<p class="small">${a("oro.on_conn",{conn:_(t,r)})}
      <button type="button" class="small" onClick=${()=>w({type:"table/select",table:e.id,value:null})}>${a("oro.show_all")}</button></p>`}
    ${n.length>0&&i`<div class="choices" role="group" aria-label=${a("decision.choices")}>
      ${n.map((f,x)=>i`<button type="button" key=${JSON.stringify(f)} class=${`choice ${f.type.toLowerCase()}`} data-key=${x+1}
          disabled=${m} onClick=${()=>{w({type:"table/select",table:e.id,value:null}),A(e,f)}}>
        ${x<9&&i`<kbd aria-hidden="true">${x+1}</kbd>`}<span>${H(e,t,f)}</span></button>`)}
    </div>`}
    <p class="small muted">${a("decision.silence",{what:p!==`oro.silence.${s.topic}`?p:s.silence})}</p>
  </section>`}function Q({ts:e,view:s}){let t=s&&s.result||e.info&&e.info.result;if(!t)return null;let o=t.scores.map((n,r)=>r).sort((n,r)=>t.ranks[n]-t.ranks[r]||n-r);return i`<section class="result" aria-label=${a("result.aria")}>
    <h2>${a("result.title")}</h2>
    <p>${a(t.reason==="eleven"?"oro.result_eleven":"oro.result_scoring")}</p>
    <table>
      <thead><tr><th>${a("result.rank")}</th><th>${a("result.player")}</th><th>${a("result.score")}</th></tr></thead>
      <tbody>${o.map(n=>i`<tr key=${n} class=${n===e.you?"me":""}><td>${t.ranks[n]}</td><td>${k(e,n)}</td><td>${t.scores[n]}</td></tr>`)}</tbody>
    </table>
    <p class="actions">
      ${e.seated?i`<button type="button" class="primary" onClick=${()=>I(e)}>
          ${a(e.rematch?"result.join_rematch":"result.rematch")}</button>`:e.rematch&&i`<a class="button primary" href=${`#/t/${e.rematch.table}`}>${a("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${e.id}`}>${a("result.replay")}</a>
      <a class="button" href="#/">${a("nav.lobby")}</a>
    </p>
    <${K} ts=${e} />
  </section>`}function W(){let e=b.refs.oro,s=b.lang;return e?i`<div class="reference">
    <p class="muted">${a("oro.ref.scoring")}</p>
    <table class="scoring">
      <thead><tr><th>${a("oro.ref.island")}</th><th>${a("oro.ref.bridges")}</th><th>${a("oro.ref.first")}</th><th>${a("oro.ref.final")}</th></tr></thead>
      <tbody>${e.sizes.flatMap(t=>t.scoring.map((o,n)=>i`<tr key=${`${t.size}${o.bridges}`}>
        <td>${n===0?`${a(`oro.size.${t.size}`)} (${t.places})`:""}</td><td>${o.bridges}</td><td>${o.first}</td><td>${o.final}</td></tr>`))}</tbody>
    </table>
    <h3>${a("oro.gods")}</h3>
    <ul class="kinds">${e.gods.map(t=>i`<li key=${t.god} id=${`ref-${t.god}`}><div>
      <h3>${t.name} <span class="muted">×${t.count} · ${t.rule}</span></h3><p>${t.text[s]??t.text.en}</p></div></li>`)}</ul>
  </div>`:null}var X=e=>e.view&&e.view.board||b.refs.oro&&b.refs.oro.board,ks={name:"oro",Stage:V,Decision:q,Result:Q,Reference:W,reference:e=>e,narrator:(e,s)=>new R(b.cat,b.en,X(e),s),narratorBasis:X,stylesheet:!0,info:{seats:{min:2,max:4,default:3},options:[{name:"gods",type:"bool",default:!1,suggested:!0}],windows:!1}};export{ks as default};
