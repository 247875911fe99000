import{d as X}from"../chunks/ZUNGCWQ7.js";import{A as I,C as Z,D as _,E,F as ee,N as G,P as F,R as j,X as te,b as T,d as q,e as S,k as U,n as p,o as V,u as M}from"../chunks/JM66SP7N.js";var P=q.bind(T),C=()=>p.refs.oriente;function se(s){let e=new Map(s.kinds.map(a=>[a.kind,a])),t=s.cards;return{data:s,kinds:e,kind:a=>t[a].kind,info:a=>e.get(t[a].kind),value:a=>t[a].value,rank:a=>t[a].rank,name(a,r){let i=e.get(t[a].kind),o=i.name[r]??i.name.en;return i.kind==="treasure"?`${o} ${t[a].value}`:o},title(a,r){let i=e.get(t[a].kind);return i.title[r]??i.title.en},action(a,r){let i=s.actions[a];return i?i[r]??i.en:a},actionText(a,r){for(let i of s.kinds)for(let o of i.abilities)if(o.action===a)return o.text[r]??o.text.en;return null}}}function _e(s){let e=C(),t=p.t,n=p.lang;if(s==null)return t("card.facedown");let a=e.info(s),r=[`${e.name(s,n)} (${e.title(s,n)})`];e.rank(s)!==null&&r.push(t("card.rank",{rank:e.rank(s)})),e.value(s)!==null&&r.push(t("card.value",{value:e.value(s)}));for(let i of a.abilities)r.push(`${i.name[n]??i.name.en}: ${i.text[n]??i.text.en}`);return r.join(" — ")}function we(s=null){V({type:"dialog",dialog:{kind:"reference",game:"oriente",focus:s}})}function R({card:s,size:e="m",mine:t=!1,note:n=null}){if(s==null)return P`<span class=${`card back ${e}`} role="img" aria-label=${p.t("card.facedown")} title=${p.t("card.facedown")}></span>`;let a=C(),r=p.lang,i=a.kind(s),o=a.rank(s),l=a.value(s),f=i==="treasure"?`◆${l}`:i==="geisha"?"✿":String(o),k=_e(s)+(t?` — ${p.t("card.mine")}`:"");return P`<button type="button" class=${`card face k-${i} ${e}${t?" mine":""}`} title=${k} aria-label=${k}
      onClick=${()=>we(i)}>
    <span class="corner">${f}</span>
    ${!(i==="treasure"&&e==="s")&&P`<span class="nm">${i==="treasure"?a.name(s,r).replace(/ \d+$/,""):a.name(s,r)}</span>`}
    ${e!=="s"&&P`<span class="sub">${a.title(s,r)}</span>`}
    ${n&&P`<span class="note">${n}</span>`}
  </button>`}function ne({focus:s}){let e=C(),t=p.t,n=p.lang;return P`<div class="reference">
    <p class="muted">${t("ref.intro")}</p>
    <ul class="kinds">
      ${e.data.kinds.map(a=>P`<li key=${a.kind} class=${s===a.kind?"focus":""} id=${`ref-${a.kind}`}>
        <${R} card=${a.cards[a.kind==="treasure"?4:0]} size="m" />
        <div>
          <h3>${a.name[n]??a.name.en} <span class="muted">${a.title[n]??a.title.en}</span></h3>
          <p class="muted">${a.rank!==null?t("ref.rank",{rank:a.rank})+" · ":""}${t("ref.count",{n:a.count})}</p>
          ${a.abilities.map(r=>P`<p><b>${r.name[n]??r.name.en}</b> (${r.rule}): ${r.text[n]??r.text.en}</p>`)}
        </div>
      </li>`)}
    </ul>
  </div>`}var b=q.bind(T),De=["free","support","pay","no_attack"];function x(s,e){return e===s.you?p.t("seat.you_named",{name:G(s,e)}):G(s,e)}function ae(s,e){let t=p.t,n=t("deals.promise",{promiser:x(s,e.promiser),promisee:x(s,e.promisee),text:e.text});return e.kind==="support"?`${n} [${t("deals.kind.support")}: ${t(`side.${e.side}`)}, ${x(s,e.attacker)} ⚔ ${x(s,e.defender)}]`:e.kind==="pay"?`${n} [${t("deals.kind.pay")}: ${e.cards.map(a=>C().name(a,p.lang)).join(", ")} ≤ ${t("board.season",{n:e.by_season})}]`:e.kind==="no_attack"?`${n} [${t("deals.kind.no_attack")}: ${x(s,e.seat)}]`:n}function Ce({ts:s,deal:e}){let t=p.t,a=(s.prompt?s.prompt.legal||[]:[]).filter(r=>r.deal===e.deal&&["AcceptDeal","DeclineDeal","WithdrawDeal"].includes(r.type));return b`<li class="deal">
    <div><b>#${e.deal}</b> ${t("deals.by",{name:x(s,e.proposer)})}</div>
    <ul>
      ${e.transfers.map((r,i)=>b`<li key=${`t${i}`}>${t("deals.transfer",{giver:x(s,r.giver),receiver:x(s,r.receiver)})}
        <${R} card=${r.card} size="s" /> <span class="muted">(${t("deals.for",{text:r.consideration})})</span></li>`)}
      ${e.promises.map((r,i)=>b`<li key=${`p${i}`}>${ae(s,r)}</li>`)}
    </ul>
    <div class="small">${e.parties.map(r=>b`<span key=${r} class=${`tag ${e.accepted.includes(r)?"yes":""}`}>
      ${e.accepted.includes(r)?"✓":"…"} ${x(s,r)}</span>`)}</div>
    ${a.length>0&&b`<div class="choices">${a.map(r=>b`<button type="button" key=${r.type} class=${r.type==="AcceptDeal"?"primary":""}
      onClick=${()=>j(s,r)}>${t(`deals.${r.type}`)}</button>`)}</div>`}
  </li>`}function Se({ts:s}){let e=p.t,t=s.view,n=s.prompt?s.prompt.legal||[]:[];return!t||!t.ledger.length?b`<p class="small muted">${e("deals.ledger_empty")}</p>`:b`<ul class="ledger">${t.ledger.map(a=>{let r=n.filter(i=>i.type==="SettlePromise"&&i.promise===a.promise);return b`<li key=${a.promise}><span class=${`status s-${a.status}`}>${e(`status.${a.status}`)}</span>
      #${a.promise} ${ae(s,a)}
      ${r.map(i=>b`<button type="button" key=${String(i.kept)} class="small" onClick=${()=>j(s,i)}>${e(i.kept?"deals.mark_kept":"deals.mark_broken")}</button>`)}
    </li>`})}</ul>`}function xe(s){return{giver:s.you,card:null,receiver:null,consideration:""}}function Re(s){let e=s.view&&s.view.fight;return{promiser:s.you,promisee:null,text:"",kind:"free",attacker:e?e.attacker:null,defender:e?e.defender:null,side:"defender",cards:[],by_season:s.view?s.view.season:1,seat:null}}function O({ts:s,value:e,onChange:t,label:n,exclude:a=[]}){let r=s.view.seats.length;return b`<label class="field">${n}
    <select value=${e===null?"":String(e)} onChange=${i=>t(i.target.value===""?null:Number(i.target.value))}>
      <option value="">—</option>
      ${Array.from({length:r},(i,o)=>o).filter(i=>!a.includes(i)).map(i=>b`<option key=${i} value=${String(i)}>${x(s,i)}</option>`)}
    </select></label>`}function L({ts:s,onDone:e,initial:t=null}){let n=p.t,a=s.view,[r,i]=S(t?t.transfers:[]),[o,l]=S(t?t.promises:[]),[f,k]=S(""),[m,v]=S(null),g=($,d,c,D)=>d($.map((N,A)=>A===c?{...N,...D}:N)),u=async $=>{$.preventDefault();let d={type:"ProposeDeal",transfers:r.map(c=>({type:"Transfer",card:c.card,giver:c.giver,receiver:c.receiver,consideration:c.consideration.trim()})),promises:o.map(c=>{let D={type:"Promise",promiser:c.promiser,promisee:c.promisee,text:c.text.trim(),kind:c.kind,attacker:null,defender:null,side:null,cards:[],by_season:null,seat:null};return c.kind==="support"&&Object.assign(D,{attacker:c.attacker,defender:c.defender,side:c.side}),c.kind==="pay"&&Object.assign(D,{cards:c.cards,by_season:Number(c.by_season)}),c.kind==="no_attack"&&(D.seat=c.seat),D}),note:f.trim()};if(t&&t.counterTo!==void 0&&t.counterTo!==null&&Object.assign(d,{counter_to:t.counterTo,why:{code:"counter",deal:t.counterTo}}),!d.transfers.length&&!d.promises.length){v(n("deals.empty"));return}if(d.transfers.some(c=>c.card===null||c.giver===null||c.receiver===null||!c.consideration)){v(n("deals.incomplete"));return}if(d.promises.some(c=>c.promiser===null||c.promisee===null||!c.text)){v(n("deals.incomplete"));return}try{await p.net.request({t:"act",table:s.id,cmd:d}),e()}catch(c){v(M(c))}},w=s.prompt;return b`<form class="builder" onSubmit=${u} aria-label=${n("deals.builder")}>
    ${w&&w.deadline_ms!==void 0&&b`<p class="builder-clock">${n(`topic.${w.topic}`)} <${E} prompt=${w} at=${s.promptAt} /></p>`}
    <h3>${n("deals.cards")}</h3>
    ${r.map(($,d)=>b`<fieldset key=${d} class="row-edit">
      <${O} ts=${s} label=${n("deals.giver")} value=${$.giver} onChange=${c=>g(r,i,d,{giver:c,card:null})} />
      <label class="field">${n("deals.card")}
        <select value=${$.card===null?"":String($.card)} onChange=${c=>g(r,i,d,{card:c.target.value===""?null:Number(c.target.value)})}>
          <option value="">—</option>
          ${($.giver!==null?a.seats[$.giver].pile:[]).map(c=>b`<option key=${c} value=${String(c)}>${C().name(c,p.lang)}</option>`)}
        </select></label>
      <${O} ts=${s} label=${n("deals.receiver")} value=${$.receiver} exclude=${[$.giver]} onChange=${c=>g(r,i,d,{receiver:c})} />
      <label class="field wide">${n("deals.consideration")}
        <input maxlength="500" value=${$.consideration} placeholder=${n("deals.consideration_hint")} onInput=${c=>g(r,i,d,{consideration:c.target.value})} /></label>
      <button type="button" class="small" onClick=${()=>i(r.filter((c,D)=>D!==d))}>${n("deals.remove")}</button>
    </fieldset>`)}
    <button type="button" onClick=${()=>i([...r,xe(s)])}>+ ${n("deals.add_card")}</button>
    <h3>${n("deals.promises")}</h3>
    ${o.map(($,d)=>b`<fieldset key=${d} class="row-edit">
      <${O} ts=${s} label=${n("deals.promiser")} value=${$.promiser} onChange=${c=>g(o,l,d,{promiser:c})} />
      <${O} ts=${s} label=${n("deals.promisee")} value=${$.promisee} exclude=${[$.promiser]} onChange=${c=>g(o,l,d,{promisee:c})} />
      <label class="field">${n("deals.kind")}
        <select value=${$.kind} onChange=${c=>g(o,l,d,{kind:c.target.value})}>
          ${De.map(c=>b`<option key=${c} value=${c}>${n(`deals.kind.${c}`)}</option>`)}
        </select></label>
      ${$.kind==="support"&&b`
        <${O} ts=${s} label=${n("role.attacker")} value=${$.attacker} onChange=${c=>g(o,l,d,{attacker:c})} />
        <${O} ts=${s} label=${n("role.defender")} value=${$.defender} onChange=${c=>g(o,l,d,{defender:c})} />
        <label class="field">${n("deals.side")}<select value=${$.side} onChange=${c=>g(o,l,d,{side:c.target.value})}>
          <option value="attacker">${n("role.attacker")}</option><option value="defender">${n("role.defender")}</option></select></label>`}
      ${$.kind==="pay"&&b`
        <label class="field">${n("deals.pay_cards")}<select multiple value=${$.cards.map(String)}
          onChange=${c=>g(o,l,d,{cards:[...c.target.selectedOptions].map(D=>Number(D.value))})}>
          ${($.promiser!==null?a.seats[$.promiser].pile:[]).map(c=>b`<option key=${c} value=${String(c)}>${C().name(c,p.lang)}</option>`)}
        </select></label>
        <label class="field">${n("deals.by_season")}<input type="number" min=${a.season} value=${$.by_season} onInput=${c=>g(o,l,d,{by_season:c.target.value})} /></label>`}
      ${$.kind==="no_attack"&&b`<${O} ts=${s} label=${n("deals.not_attack")} value=${$.seat} exclude=${[$.promiser]} onChange=${c=>g(o,l,d,{seat:c})} />`}
      <label class="field wide">${n("deals.words")}<input maxlength="500" value=${$.text} placeholder=${n("deals.words_hint")} onInput=${c=>g(o,l,d,{text:c.target.value})} /></label>
      <button type="button" class="small" onClick=${()=>l(o.filter((c,D)=>D!==d))}>${n("deals.remove")}</button>
    </fieldset>`)}
    <button type="button" onClick=${()=>l([...o,Re(s)])}>+ ${n("deals.add_promise")}</button>
    <label class="field wide">${n("deals.note")}<input maxlength="500" value=${f} onInput=${$=>k($.target.value)} /></label>
    ${m&&b`<p class="error" role="alert">${m}</p>`}
    <p class="actions"><button type="submit" class="primary">${n("deals.propose")}</button>
      <button type="button" onClick=${e}>${n("deals.cancel")}</button></p>
  </form>`}function re({ts:s}){let e=p.t,[t,n]=S(!1),a=s.view;if(!a)return b`<p class="muted">${e("deals.not_started")}</p>`;let r=s.info&&s.info.status==="running";return b`<div class="deals">
    ${s.seated&&r&&!t&&b`<button type="button" class="primary" onClick=${()=>n(!0)}>${e("deals.new")}</button>`}
    ${t&&b`<${L} ts=${s} onDone=${()=>n(!1)} />`}
    <h3>${e("deals.open")}</h3>
    ${a.deals.length?b`<ul class="open-deals">${a.deals.map(i=>b`<${Ce} key=${i.deal} ts=${s} deal=${i} />`)}</ul>`:b`<p class="small muted">${e("deals.none")}</p>`}
    <h3>${e("deals.ledger")}</h3>
    <${Se} ts=${s} />
    <h3>${e("deals.records")}</h3>
    <ul class="records">${a.seats.map(i=>b`<li key=${i.seat}>${x(s,i.seat)}: ✓${i.kept} ${e("status.kept")} · ✗${i.broken} ${e("status.broken")}</li>`)}</ul>
  </div>`}var Y=(s,e)=>typeof e=="number"&&s===e,z=class extends Z{constructor(e,t,n,a=null){super(e,t,a),this.cardsRef=n}name(e){return e==null?this.t("hidden_card"):this.cardsRef.name(e,this.lang)}a(e){if(e==null)return this.t("hidden_card");let t=`card_a.${this.cardsRef.kind(e)}`;return this.t(this.has(t)?t:"card_a",{card:this.name(e)})}cards(e){return this.list((e||[]).map(t=>this.name(t)))}some(e){return this.list((e||[]).map(t=>this.a(t)))}secret(e,t,n){return e==null?this.t("secret_hidden"):Y(t,n)?this.t("secret_you",{card:this.name(e)}):this.t("secret_shown",{card:this.name(e)})}action(e,t=!1){if(!e)return this.t("action.none");let n=`${t?"bare":"action"}.${e.kind}`;return this.has(n)?this.t(n,{target:this.seat(e.target)}):String(e.kind)+(e.target!=null?` ${this.seat(e.target)}`:"")}pairs(e){return e.map(([t,n])=>this.t("GameStarted.pair",{seat:this.seat(t),card:this.name(n)})).join(this.t("sep"))}reason(e){return this.has(`reason.${e}`)?this.t(`reason.${e}`):String(e)}e_GameStarted(e,t){let n=[this.t("GameStarted",{n:e.seats,stone:this.seat(e.stone_holder)})],a=e.treasures||[];a.length&&n.push(this.t("GameStarted.treasures",{list:this.pairs(a.map((l,f)=>[f,l]))}));let r=e.inhabitants||[],i=r.map((l,f)=>[f,l]).filter(([,l])=>l!==null),o={bonus:this.secret(e.bonus_card??null,null,t),deck:e.deck_size};return i.length&&i.length===r.length?n.push(this.t("GameStarted.inhabitants_all",{list:this.pairs(i),...o})):i.length?n.push(this.t("GameStarted.inhabitants_some",{secrets:i.map(([l,f])=>this.secret(f,l,t)).join("; "),...o})):n.push(this.t("GameStarted.inhabitants_none",o)),n.push(this.t(e.hut_used?"GameStarted.hut":"GameStarted.no_hut")),n.join(`
`)}e_SeasonBegan(e){return this.t("SeasonBegan",{season:e.season,stone:this.seat(e.stone_holder),bonus:this.plural("count.card",e.bonus_size??0)})}e_Passed(e){return this.t("Passed",{seat:this.seat(e.seat)})}e_Announced(e){let t=this.seat(e.seat);return e.claim?this.t("Announced.claim",{seat:t,over:this.seat(e.over),card:this.a(e.card),action:this.action(e.action,!0)}):e.card!==null&&e.card!==void 0?this.t("Announced.reveal",{seat:t,action:this.action(e.action),card:this.a(e.card)}):this.t("Announced",{seat:t,action:this.action(e.action)})}e_PrivilegeRoundOpened(e){return this.t("PrivilegeRoundOpened",{asked:this.seats(e.asked||[]),announcer:this.seat(e.announcer),rank:e.rank})}e_PrivilegePassed(e){return this.t(e.voided_claim?"PrivilegePassed.voided":"PrivilegePassed",{seat:this.seat(e.seat)})}e_Fulfilled(e){let t=this.seat(e.seat),n=this.action(e.action),a=e.bonus_set_aside||0;return a?this.plural("Fulfilled.aside",a,{seat:t,action:n,count:this.plural("count.bonus",a)}):this.t("Fulfilled",{seat:t,action:n})}e_BonusAwarded(e){let t=e.cards||[],n=this.seat(e.seat);return e.blessing?t.length?this.t("BonusAwarded.blessing",{seat:n,cards:this.cards(t)}):this.t("BonusAwarded.blessing_none",{seat:n}):this.t("BonusAwarded",{seat:n,cards:this.cards(t)})}e_IncomeDrawn(e){return this.t("IncomeDrawn",{seat:this.seat(e.seat),card:this.a(e.card)})}e_SuccessionDone(e){let t={seat:this.seat(e.seat),target:this.seat(e.target)};return e.done?this.t(e.from_pile?"SuccessionDone.pile":"SuccessionDone",t):this.t("SuccessionDone.failed",t)}e_CreditTaken(e){let t=e.cards||[],n={seat:this.seat(e.seat),target:this.seat(e.target)};return t.length?this.t("CreditTaken",{n:t.length,...n}):this.t("CreditTaken.none",n)}e_TradeDone(e){let t=this.seat(e.target),n=e.given!==null&&e.given!==void 0?this.t("TradeDone.give",{card:this.name(e.given),target:t}):this.t("TradeDone.give_none",{target:t}),a=e.drawn!==null&&e.drawn!==void 0?this.t("TradeDone.draw",{card:this.name(e.drawn)}):this.t("TradeDone.draw_none");return this.t("TradeDone",{seat:this.seat(e.seat),give:n,draw:a})}e_Incited(e){let t={hut:"Incited.hut",square:"Incited.square"}[e.moved_to]||"Incited.none";return this.t("Incited",{seat:this.seat(e.seat),where:this.t(t),supply:e.supply,hut:e.hut,square:e.square})}e_Assassinated(e){return this.t("Assassinated",{seat:this.seat(e.seat),target:this.seat(e.target),card:this.name(e.card)})}e_InhabitantDrawn(e,t){return this.t("InhabitantDrawn",{seat:this.seat(e.seat),secret:this.secret(e.card,e.seat,t)})}e_TransformationBegan(e,t){let n=(e.taken||[]).filter(([,i])=>i!==null),a=this.seat(e.seat);if(!n.length)return this.t("TransformationBegan",{seat:a});let r=this.t(Y(e.seat,t)?"TransformationBegan.you_see":"TransformationBegan.it_sees");return this.t("TransformationBegan.seen",{seat:a,who:r,list:this.pairs(n)})}e_TransformationDone(e,t){let n=e.kept!==null&&e.kept!==void 0?` ${this.secret(e.kept,e.seat,t)}`:"",a=e.drawn!==null&&e.drawn!==void 0?` (${this.name(e.drawn)})`:"",r=(e.dealt||[]).filter(([,o])=>o!==null),i="";return r.length&&r.every(([o])=>!Y(o,t))?i=": "+this.pairs(r):r.length&&(i=" "+r.map(([o,l])=>this.secret(l,o,t)).join(" ")),this.t("TransformationDone",{seat:this.seat(e.seat),kept:n,drawn:a,dealt:i})}e_FightBegan(e){let t=e.asked||[],n=t.length?I(this.t("FightBegan.asked",{asked:this.seats(t)})):this.t("FightBegan.nobody"),a={defender:this.seat(e.defender),attacker:this.seat(e.attacker),tail:n};return e.defender_card===null||e.defender_card===void 0?this.t("FightBegan.hidden",a):this.t("FightBegan",{card:this.a(e.defender_card),...a})}e_NegotiationDone(e){return I(this.t("NegotiationDone",{seat:this.seat(e.seat)}))}e_NegotiationClosed(){return this.t("NegotiationClosed")}e_SupportDeclared(e){return e.side===null||e.side===void 0?this.t("SupportDeclared.none",{seat:this.seat(e.seat)}):this.t("SupportDeclared",{seat:this.seat(e.seat),side:this.t(`side.${e.side}`)})}e_SupportersRevealed(e){let t=(e.supporters||[]).map(([n,a,r])=>this.t("SupportersRevealed.item",{seat:this.seat(n),card:this.name(a),side:this.t(`side.${r}`)}));return this.t("SupportersRevealed",{list:t.join(this.t("sep"))})}e_ReinforcementTurned(e){return this.t("ReinforcementTurned",{seat:this.seat(e.seat),card:this.a(e.card)})}e_FightResolved(e){return this.t(e.shogun_defence?"FightResolved.shogun":"FightResolved",{attack:e.attack_total,defence:e.defence_total,winner:this.seat(e.winner),loser:this.seat(e.loser),card:this.name(e.captured)})}e_ReinforcementTaken(e){let t=e.to_bottom||[],n=e.to_winner||[],a="";return t.length&&(a+=this.plural("ReinforcementTaken.bottom",t.length,{cards:this.some(t)})),n.length&&(a+=this.plural("ReinforcementTaken.winner",n.length,{cards:this.some(n),winner:this.seat(e.winner)})),this.t("ReinforcementTaken",{seat:this.seat(e.seat),card:this.name(e.card),rest:a})}e_RevolutionRoundOpened(e){return this.t("RevolutionRoundOpened",{asked:this.seats(e.asked||[]),announcer:this.seat(e.announcer)})}e_RevolutionAnswered(e){let t=this.seat(e.seat);return e.joined?e.card===null||e.card===void 0?this.t("RevolutionAnswered.joined",{seat:t}):this.t("RevolutionAnswered.reveal",{seat:t,card:this.a(e.card)}):this.t("RevolutionAnswered",{seat:t})}e_RevolutionResolved(e){let t=[this.t("RevolutionResolved",{revolters:this.seats(e.revolters||[]),strength:e.strength})],n=e.inhabitants||[];n.length&&t.push(this.t("RevolutionResolved.inhabitants",{list:this.pairs(n)}));let a=e.victims||[],r=new Map((e.loot||[]).map(([o,l])=>[o,l]));a.length?t.push(this.t("RevolutionResolved.victims",{list:a.map(o=>this.t("RevolutionResolved.victim",{seat:this.seat(o),cards:this.cards(r.get(o)||[])})).join("; ")})):t.push(this.t("RevolutionResolved.no_victims"));let i=new Map;for(let[o,l]of e.dealt||[])i.has(o)||i.set(o,[]),i.get(o).push(l);return i.size&&t.push(this.t("RevolutionResolved.dealt",{list:[...i].map(([o,l])=>this.t("RevolutionResolved.gets",{seat:this.seat(o),cards:this.cards(l)})).join("; ")})),t.push(this.t("RevolutionResolved.workers")),t.join(`
`)}e_SeasonEnded(e){return this.t("SeasonEnded",{season:e.season,card:e.bonus_card!==null&&e.bonus_card!==void 0?` (${this.name(e.bonus_card)})`:""})}e_GeishaDrawn(e){let t=`purpose.${e.purpose}`,n=this.has(t)?this.t(t):`(${e.purpose})`,a=e.seat!==null&&e.seat!==void 0?this.t("GeishaDrawn.by",{seat:this.seat(e.seat)}):"";return this.t("GeishaDrawn",{purpose:n,by:a})}e_GameEnded(e){let t=e.ranks||[],n=e.scores||[],a=t.map((i,o)=>[i,o]).filter(([i])=>i===1).map(([,i])=>i),r=this.reason(e.reason);if(e.ninja_victor!==null&&e.ninja_victor!==void 0)return this.t("GameEnded.ninja",{reason:r,victor:I(this.seat(e.ninja_victor))});if(a.length){let i=a[0]<n.length?n[a[0]]:"?";return this.t(a.length===1?"GameEnded.wins":"GameEnded.share",{reason:r,firsts:I(this.seats(a)),points:i})}return this.t("GameEnded",{reason:r})}transfer(e){let t={giver:this.seat(e.giver),card:this.name(e.card),receiver:this.seat(e.receiver)};return e.consideration?this.t("transfer.for",{consideration:e.consideration,...t}):this.t("transfer",t)}promise(e){return this.t("promise",{promiser:this.seat(e.promiser),promisee:this.seat(e.promisee),text:e.text??""})}e_DealProposed(e){let t=(e.parties||[]).filter(o=>o!==e.proposer),n=[...(e.transfers||[]).map(o=>this.transfer(o)),...(e.promises||[]).map(o=>this.promise(o))],a={proposer:this.seat(e.proposer),deal:e.deal,others:this.seats(t),parts:this.list(n)},r=e.note?this.t("DealProposed.note",{note:e.note,...a}):this.t("DealProposed",a),i=e.why&&typeof e.why=="object"?e.why:null;return i&&(r=this.t("DealProposed.why",{line:r,why:this.why(i)})),e.counter_to!==null&&e.counter_to!==void 0&&!(i&&i.code==="counter")&&(r=this.t("DealProposed.counter",{line:r,deal:e.counter_to})),r}why(e){let t=e.code,n=`why.${t}`;if(typeof t!="string"||!(n in this.en))return String(t);let a={};for(let[r,i]of Object.entries(e))r!=="code"&&(a[r]=i);for(let r of["seat","attacker","defender"])r in a&&(a[r]=this.seat(a[r]));return(e.side==="attacker"||e.side==="defender")&&(a.side=this.t(`side.${e.side}`),a.fighter=this.seat(e[e.side])),this.t(n,a)}e_DealAccepted(e){return this.t("DealAccepted",{seat:this.seat(e.seat),deal:e.deal})}e_DealClosed(e){let t=e.reason;return t==="declined"||t==="withdrawn"?e.seat!==null&&e.seat!==void 0?t==="declined"&&e.why&&typeof e.why=="object"?this.t("DealClosed.declined_why",{deal:e.deal,seat:this.seat(e.seat),why:this.why(e.why)}):this.t(`DealClosed.${t}_by`,{deal:e.deal,seat:this.seat(e.seat)}):this.t(`DealClosed.${t}`,{deal:e.deal}):t==="void"||t==="lapsed"?this.t(`DealClosed.${t}`,{deal:e.deal}):this.t("DealClosed",{deal:e.deal,reason:t})}e_DealExecuted(e){let t=(e.transfers||[]).map(r=>this.transfer(r)),n=t.length?this.list(t):this.t("DealExecuted.nothing"),a=e.promise_ids||[];return a.length?this.t("DealExecuted.promises",{deal:e.deal,transfers:n,ids:this.list(a.map(r=>`#${r}`))}):this.t("DealExecuted",{deal:e.deal,transfers:n})}e_PromiseSettled(e){let t={promiser:this.seat(e.promiser),promise:e.promise};if(e.status==="released")return this.t("PromiseSettled.released",t);let n=this.has(`status.${e.status}`)?this.t(`status.${e.status}`):String(e.status);return e.by!==null&&e.by!==void 0?this.t("PromiseSettled.by",{status:n,by:this.seat(e.by),...t}):this.t("PromiseSettled",{status:n,...t})}};function B(s,e){let t=(s||[]).filter(n=>(e(n)||0)>0);return t.length?t.reduce((n,a)=>e(a)<e(n)?a:n):null}function oe(s){let e=s&&s.fight;return e&&Number.isInteger(e.attacker)&&Number.isInteger(e.defender)?e:null}function ie(s,e){if(!s||!["negotiation","support"].includes(s.topic))return[];let t=new Set((s.published||[]).map(([n])=>n));return(s.asked||[]).filter(n=>!t.has(n)&&e.seats[n]&&e.seats[n].disc)}function le(s,e,t,n){if(!s||!Number.isInteger(t)||!s.seats||!s.seats[t])return[];if(e&&e.deal&&e.deal.propose===!1)return[];let a=[],r=oe(s),i=s.seats[t].pile||[];if(r){let l=ie(e,s).filter(k=>k!==t),f=r.attacker===t?"attacker":r.defender===t?"defender":null;if(f&&l.length&&B(i,n)!==null&&a.push({kind:"buy_support",side:f,fighter:t,giver:t,cards:i,card:B(i,n),seats:l,chosen:[l[0]]}),!f&&ie(e,s).includes(t))for(let k of["attacker","defender"]){let m=r[k],v=s.seats[m].pile||[];B(v,n)!==null&&a.push({kind:"sell_support",side:k,fighter:m,giver:m,cards:v,card:B(v,n),seats:[m],chosen:[m]})}}let o=s.seats.filter(l=>l.seat!==t&&l.disc).map(l=>l.seat);if(o.length&&B(i,n)!==null){let l=r&&r.attacker!==t&&o.includes(r.attacker)?r.attacker:o[0];a.push({kind:"peace",giver:t,cards:i,card:B(i,n),seats:o,chosen:[l]})}return a}function J(s){return{type:"Promise",attacker:null,defender:null,side:null,cards:[],by_season:null,seat:null,...s}}function ce(s,e,t,n,a,r,i){let o=oe(n);return t.map(l=>{if(s.kind==="buy_support"){let k={side:r(`side.${s.side}`),name:i(a)};return{type:"ProposeDeal",transfers:[{type:"Transfer",card:e,giver:a,receiver:l,consideration:r("quick.for_support",k)}],promises:[J({promiser:l,promisee:a,kind:"support",attacker:o.attacker,defender:o.defender,side:s.side,text:r("quick.promise_support",k)})],note:"",why:{code:"buy_support",attacker:o.attacker,defender:o.defender,side:s.side}}}if(s.kind==="sell_support"){let k={side:r(`side.${s.side}`),name:i(s.fighter)};return{type:"ProposeDeal",transfers:[{type:"Transfer",card:e,giver:s.fighter,receiver:a,consideration:r("quick.for_support",k)}],promises:[J({promiser:a,promisee:s.fighter,kind:"support",attacker:o.attacker,defender:o.defender,side:s.side,text:r("quick.promise_support",k)})],note:"",why:{code:"sell_support",attacker:o.attacker,defender:o.defender,side:s.side}}}let f={name:i(a)};return{type:"ProposeDeal",transfers:[{type:"Transfer",card:e,giver:a,receiver:l,consideration:r("quick.for_peace",f)}],promises:[J({promiser:l,promisee:a,kind:"no_attack",seat:a,text:r("quick.promise_peace",f)})],note:"",why:{code:"peace",seat:l}}})}function de(s){return{transfers:(s.transfers||[]).map(e=>({giver:e.giver,card:e.card,receiver:e.receiver,consideration:e.consideration||""})),promises:(s.promises||[]).map(e=>({...J({}),...e,cards:[...e.cards||[]],kind:e.kind||"free"})),counterTo:s.deal}}function ue(s,e){let t=new Map,n=0;for(let a of s||[])if(a.type==="SeasonBegan")n=a.season;else if(a.type==="DealProposed")t.set(a.deal,{deal:a.deal,proposer:a.proposer,parties:a.parties||[],accepted:[a.proposer],status:"open",by:null,why:null,counterTo:a.counter_to??null,season:n});else if(t.has(a.deal)){let r=t.get(a.deal);a.type==="DealAccepted"&&!r.accepted.includes(a.seat)&&(r.accepted=[...r.accepted,a.seat]),a.type==="DealExecuted"&&(r.status="executed"),a.type==="DealClosed"&&Object.assign(r,{status:a.reason,by:a.seat??null,why:a.why??null})}return[...t.values()].filter(a=>a.parties.includes(e)&&(a.status==="open"||a.season===n))}var y=q.bind(T),Te=["worth_less","record","cannot_keep","words_only","too_late"],H=s=>C().name(s,p.lang),K=(s,e)=>e.map(t=>_(s,t)).join(", ");function qe(s,e){let t=p.t;return e.kind==="buy_support"?t("quick.buy_support",{side:t(`side.${e.side}`)}):e.kind==="sell_support"?t("quick.sell_support",{name:_(s,e.fighter),side:t(`role.${e.side}`)}):t("quick.peace")}function he({ts:s}){let e=p.t,t=le(s.view,s.prompt,s.you,d=>C().value(d)),n=s.prompt?s.prompt.id:null,[a,r]=S({key:null,index:0,card:null,seats:null}),[i,o]=S(null),[l,f]=S(!1);if(!t.length&&!l)return null;let k=a.key===n?a:{key:n,index:0,card:null,seats:null},m=t[Math.min(k.index,t.length-1)],v=d=>{r({...k,...d}),o(null)},g=m&&m.cards.includes(k.card)?k.card:m?m.card:null,u=m?(k.seats||m.chosen).filter(d=>m.seats.includes(d)):[],w=d=>v({seats:u.includes(d)?u.filter(c=>c!==d):[...u,d]}),$=async()=>{let d=(A,W)=>e(A,W),c=ce(m,g,u,s.view,s.you,d,A=>_(s,A)),D=[],N=[];for(let[A,W]of c.entries())try{await p.net.request({t:"act",table:s.id,cmd:W}),D.push(_(s,u[A]))}catch(ye){N.push(M(ye))}o({text:D.length?e("quick.sent",{list:D.join(", ")}):"",error:N[0]||null})};return y`<section class="quick" aria-label=${e("quick.title")}>
    <h3>${e("quick.title")}</h3>
    ${m&&y`<div class="quick-kinds" role="radiogroup" aria-label=${e("quick.title")}>
      ${t.map((d,c)=>y`<label key=${`${d.kind}-${d.side||""}`} class="check">
        <input type="radio" name="quick-kind" checked=${d===m} onChange=${()=>v({index:c,card:null,seats:null})} />
        ${qe(s,d)}</label>`)}
    </div>
    <div class="quick-row">
      <label class="field">${e(m.giver===s.you?"quick.card_mine":"quick.card_theirs")}
        <select class="quick-card" value=${String(g)} onChange=${d=>v({card:Number(d.target.value)})}>
          ${m.cards.map(d=>y`<option key=${d} value=${String(d)}>${H(d)}</option>`)}
        </select></label>
      ${m.seats.length>1?y`<fieldset class="quick-seats"><legend>${e("quick.to")}</legend>
          ${m.seats.map(d=>y`<label key=${d} class="check"><input type="checkbox" checked=${u.includes(d)}
            onChange=${()=>w(d)} />${_(s,d)}</label>`)}</fieldset>`:y`<span class="small">${e("quick.to")}: ${K(s,m.seats)}</span>`}
    </div>
    ${u.length>1&&m.kind!=="sell_support"&&y`<p class="small note">${e("quick.several")}</p>`}
    <p class="actions">
      <button type="button" class="primary quick-propose" disabled=${!u.length||g===null} onClick=${$}>
        ${u.length>1?e("quick.propose_n",{n:u.length}):e("quick.propose")}</button>
      <button type="button" onClick=${()=>f(!l)}>${e("quick.more")}</button>
    </p>`}
    ${!m&&y`<p class="actions"><button type="button" onClick=${()=>f(!l)}>${e("quick.more")}</button></p>`}
    ${i&&i.text&&y`<p class="small quick-sent" role="status">${i.text}</p>`}
    ${i&&i.error&&y`<p class="error" role="alert">${i.error}</p>`}
    ${l&&y`<${L} ts=${s} onDone=${()=>f(!1)} />`}
  </section>`}function je(s,e){let t=p.t,n=r=>_(s,r),a=(e.transfers||[]).map(r=>t("offers.gives",{giver:n(r.giver),card:H(r.card),receiver:n(r.receiver)}));for(let r of e.promises||[])r.kind==="support"?a.push(t("offers.support",{promiser:n(r.promiser),side:t(`side.${r.side}`),fighter:n(r.side==="attacker"?r.attacker:r.defender)})):r.kind==="no_attack"?a.push(t("offers.no_attack",{promiser:n(r.promiser),seat:n(r.seat)})):r.kind==="pay"?a.push(t("offers.pay",{promiser:n(r.promiser),promisee:n(r.promisee),cards:(r.cards||[]).map(H).join(", "),season:r.by_season})):a.push(t("deals.promise",{promiser:n(r.promiser),promisee:n(r.promisee),text:r.text}));return a}function pe(s,e,t){if(e==="record"){let n=s.view.seats[t.proposer];return{code:e,seat:t.proposer,kept:n.kept||0,broken:n.broken||0}}return{code:e}}function Pe({ts:s,deal:e}){let t=p.t,[n,a]=S(""),[r,i]=S(!1),o=s.prompt?s.prompt.legal||[]:[],l=g=>o.find(u=>u.type===g&&u.deal===e.deal),f=l("AcceptDeal"),k=l("DeclineDeal"),m=F(s),v=e.why?m.why(e.why):null;return y`<li class="offer" data-deal=${e.deal}>
    <div><b>${t("offers.from",{deal:e.deal,name:_(s,e.proposer)})}</b></div>
    <ul class="terms">${je(s,e).map((g,u)=>y`<li key=${u}>${g}</li>`)}</ul>
    ${v&&y`<p class="small why">${v}</p>`}
    ${e.counter_to!==void 0&&e.counter_to!==null&&y`<p class="small muted">${t("mydeals.counter",{deal:e.counter_to})}</p>`}
    <div class="choices">
      ${f&&y`<button type="button" class="primary" onClick=${()=>j(s,f)}>${t("deals.AcceptDeal")}</button>`}
      ${k&&y`<button type="button" onClick=${()=>j(s,n?{...k,why:pe(s,n,e)}:k)}>${t("deals.DeclineDeal")}</button>
        <label class="field inline small">${t("offers.why_label")}
          <select class="decline-why" value=${n} onChange=${g=>a(g.target.value)}>
            <option value="">${t("offers.why_none")}</option>
            ${Te.map(g=>y`<option key=${g} value=${g}>${m.why(pe(s,g,e))}</option>`)}
          </select></label>`}
      <button type="button" onClick=${()=>i(!r)}>${t("offers.counter")}</button>
    </div>
    ${r&&y`<div class="counter"><h3>${t("offers.counter_title",{deal:e.deal})}</h3>
      <${L} ts=${s} initial=${de(e)} onDone=${()=>i(!1)} /></div>`}
  </li>`}function $e({ts:s}){let e=p.t,t=s.view;if(!t||!s.seated||!t.deals)return null;let n=t.deals.filter(a=>a.parties.includes(s.you)&&!a.accepted.includes(s.you));return n.length?y`<section class="offers" aria-label=${e("offers.title")}>
    <h3>${e("offers.title")}</h3>
    <ul>${n.map(a=>y`<${Pe} key=${a.deal} ts=${s} deal=${a} />`)}</ul>
  </section>`:null}function Ae(s,e){let t=p.t,n=F(s),a=r=>_(s,r);switch(e.status){case"open":return t("mydeals.open",{yes:K(s,e.accepted),no:K(s,e.parties.filter(r=>!e.accepted.includes(r)))});case"executed":return t("mydeals.executed");case"declined":return e.why?t("mydeals.declined_why",{name:a(e.by),why:n.why(e.why)}):t("mydeals.declined",{name:a(e.by)});case"withdrawn":return t("mydeals.withdrawn",{name:a(e.by)});case"void":return t("mydeals.void");case"lapsed":return t("mydeals.lapsed");default:return e.status}}function fe({ts:s}){let e=p.t;if(!s.view||!s.seated)return null;let t=new Set((s.view.deals||[]).filter(a=>!a.accepted.includes(s.you)).map(a=>a.deal)),n=ue(s.events,s.you).filter(a=>!t.has(a.deal)).reverse().slice(0,6);return n.length?y`<section class="mydeals" aria-label=${e("mydeals.title")}>
    <h3>${e("mydeals.title")}</h3>
    <ul role="status">${n.map(a=>y`<li key=${a.deal} class=${`md-${a.status}`} data-deal=${a.deal}>
      ${e("mydeals.line",{deal:a.deal,parties:K(s,a.parties.filter(r=>r!==s.you)),state:Ae(s,a)})}</li>`)}</ul>
  </section>`:null}var h=q.bind(T),Oe=new Set(["Announce","Pass","Claim","Support","Join","Choose","Done"]);function Q(s,e){if(!e)return"";let t=C().action(e.kind,p.lang);return e.target!==null&&e.target!==void 0?p.t("action.target",{action:t,target:_(s,e.target)}):t}function ge(s,e,t){let n=p.t;return t==null?n("answer.pass"):e==="support"?n("answer.support",{side:n(`side.${t}`)}):e==="revolution"?n("answer.joined"):String(t)}function Be({ts:s,s:e}){let t=s.info&&s.info.seats?s.info.seats[e]:null,n=p.t,a="on",r=n("presence.connected"),i="●";return s.proxied.includes(e)?(a="proxy",r=n("presence.proxied"),i="⚙"):t&&t.away?(a="away",r=n("presence.away"),i="◐"):(!t||!t.connected)&&(a="off",r=n("presence.offline"),i="○"),h`<span class=${`presence p-${a}`} title=${r} aria-label=${r}>${i}<span class="plabel">${r}</span></span>`}function Ne({ts:s,view:e,s:t}){let n=p.t,a=e?e.seats[t]:null,r=s.info&&s.info.seats?s.info.seats[t]:null,i=s.prompt||e&&e.decision,o=i&&i.pivot===t,l=e&&e.fight,f=l?l.attacker===t?"attacker":l.defender===t?"defender":null:null,k=i&&i.published?i.published.find(([$])=>$===t):null,m=i&&(i.asked||[]).includes(t),v=a?a.pile:[],g=v.reduce(($,d)=>$+(C().value(d)||0),0),u=null;if(a&&!a.empty&&!a.revealed&&Array.isArray(a.known_to)){let $=a.known_to.filter(d=>d!==t);$.length?u=n("seat.known_to",{list:$.map(d=>_(s,d)).join(", ")}):t===s.you&&(u=n("seat.only_you"))}let w=["seat",t===s.you?"me":"",o?"pivot":"",f||"",e&&e.announcer===t?"announcer":""].join(" ");return h`<section class=${w} aria-label=${n("seat.aria",{name:_(s,t),n:t})}>
    <header>
      <${Be} ts=${s} s=${t} />
      <b class="who">${r&&r.bot?r.name.replace(/ \(bot\)$/,""):G(s,t)}</b>
      ${t===s.you&&h`<span class="badge you">${n("seat.you")}</span>`}
      ${r&&r.bot&&h`<span class="badge bot" title=${n("seat.bot_aria",{kind:n(`bot.${r.bot}`)})}>${n("seat.bot")}</span>`}
      ${r&&h`<${X} account=${r.account} />`}
      <span class="muted num">#${t}</span>
      ${e&&e.stone_holder===t&&h`<span class="badge stone" title=${n("seat.stone")} aria-label=${n("seat.stone")}>◉</span>`}
      ${a&&h`<span class=${`badge disc ${a.disc?"held":"used"}`} title=${a.disc?n("seat.disc"):n("seat.no_disc")}
                          aria-label=${a.disc?n("seat.disc"):n("seat.no_disc")}>${a.disc?"⬤":"◯"}</span>`}
    </header>
    ${a&&h`<div class="hand">
      <div class="inh">
        ${a.empty?h`<span class="card empty m" aria-label=${n("seat.empty")}></span>`:h`<${R} card=${a.inhabitant} mine=${t===s.you&&!a.revealed&&a.inhabitant!==null} />`}
        <span class="small muted">${a.empty?n("seat.empty"):a.revealed?n("seat.revealed"):a.inhabitant!==null&&t!==s.you?n("seat.face_down_seen"):n("seat.face_down")}</span>
      </div>
      <div class="pile" aria-label=${n("seat.pile_aria",{n:v.length,points:g})}>
        <div class="cards">${v.map($=>h`<${R} key=${$} card=${$} size="s" />`)}</div>
        <span class="pts">${n("seat.points",{n:g})}</span>
      </div>
    </div>`}
    ${u&&h`<div class="small known">${u}</div>`}
    <div class="tags">
      ${f&&h`<span class=${`tag ${f}`}>${n(`role.${f}`)}</span>`}
      ${k&&h`<span class="tag">${ge(s,i.topic,k[1])}</span>`}
      ${m&&!k&&!o&&i.kind!=="window"&&h`<span class="tag muted">${n("seat.asked")}</span>`}
      ${a&&(a.kept||a.broken)?h`<span class="tag record" title=${n("seat.record")}>✓${a.kept} ✗${a.broken}</span>`:""}
      ${o&&s.prompt&&h`<${E} prompt=${s.prompt} at=${s.promptAt} />`}
    </div>
  </section>`}function Ie({ts:s,view:e}){let t=p.t;if(!e)return h`<div class="board"><p>${t("board.waiting")}</p></div>`;let n=e.workers,a=(r,i)=>Array.from({length:r},(o,l)=>h`<span key=${l} class=${`worker ${i}`} aria-hidden="true">●</span>`);return h`<div class="board" aria-label=${t("board.aria")}>
    <div class="line"><b>${t("board.season",{n:e.season})}</b> · ${t(`phase.${e.phase}`)}</div>
    <div class="village">
      <div><span class="small muted">${t("board.supply")}</span><div>${a(n.supply,"supply")}</div></div>
      ${n.hut_used&&h`<div><span class="small muted">${t("board.hut")}</span><div>${a(n.hut,"hut")}</div></div>`}
      <div><span class="small muted">${t("board.square")}</span><div>${a(n.square,"square")}</div></div>
    </div>
    <div class="piles">
      <div class="stack" title=${t("board.deck")}><span class="card back s"></span> ${t("board.deck_n",{n:e.deck_size})}</div>
      <div class="stack" title=${t("board.bonus")}><span class="card back s bonus"></span> ${t("board.bonus_n",{n:e.bonus_size})}${e.bonus_set_aside?" "+t("board.set_aside",{n:e.bonus_set_aside}):""}</div>
    </div>
    ${e.deck_bottom&&e.deck_bottom.length>0&&h`<div class="small">${t("board.bottom")} ${e.deck_bottom.map(r=>h`<${R} key=${r} card=${r} size="s" />`)}</div>`}
    ${e.announcer!==null&&e.announcer!==void 0&&e.action&&h`<div class="announce">
      ${t("board.announced",{name:_(s,e.announcer),action:Q(s,e.action)})}</div>`}
    ${e.fight&&h`<div class="fight">${t("board.fight",{attacker:_(s,e.fight.attacker),defender:_(s,e.fight.defender)})}
      ${e.in_play&&e.in_play.length>0&&h`<div>${e.in_play.map((r,i)=>h`<${R} key=${i} card=${r} size="s" />`)}</div>`}</div>`}
  </div>`}var Ee={4:[0,1,1],5:[0,1,2],6:[0,1,3],7:[0,2,2],8:[0,2,3],9:[0,2,4],10:[1,2,3],11:[1,2,4],12:[1,2,5]};function ke({ts:s,view:e}){let t=e?e.seats.length:s.info?s.info.settings.seats:0,n=s.seated?s.you:0,[a,r,i]=Ee[t]||[0,Math.floor((t-1)/3),t-1-2*Math.floor((t-1)/3)],o=u=>(n+u)%t,l=u=>{let w=o(u);return h`<${Ne} key=${w} ts=${s} view=${e} s=${w} />`},f=(u,w)=>Array.from({length:Math.max(0,w-u)},($,d)=>u+d),k=[...f(1,a+1).reverse(),0,...f(t-a,t).reverse()],m=f(a+1,a+1+r).reverse(),v=f(a+1+r,a+1+r+i),g=f(a+1+r+i,a+1+2*r+i);return h`<div class=${`ring n${t}`}>
    <div class="r-top">${v.map(l)}</div>
    <div class="r-left">${m.map(l)}</div>
    <${Ie} ts=${s} view=${e} />
    <div class="r-right">${g.map(l)}</div>
    <div class="r-bottom">${k.map(l)}</div>
  </div>`}function me(s,e,t){let n=p.t,a=s.view||{};switch(e.type){case"Pass":return n(`pass.${t}`);case"Announce":return Q(s,e.action);case"Claim":return n("choice.claim",{action:Q(s,e.action)});case"Support":{let r=a.fight||{},i=e.side==="attacker"?r.attacker:r.defender;return n("choice.support",{side:n(`side.${e.side}`),name:i!=null?_(s,i):""})}case"Join":return n("choice.join");case"Done":return n("choice.done");case"Choose":return C().name(e.card,p.lang);default:return e.type}}function Ge(s,e,t){let n=p.t,a=p.lang,r=l=>n(l)!==l,i=new Map,o=l=>{let f=l==="attack"?n("help.attack"):C().actionText(l,a);f&&i.set(`a-${l}`,[C().action(l,a),f])};for(let l of e)switch(l.type){case"Pass":r(`help.pass.${t}`)&&i.set("pass",[n(`pass.${t}`),n(`help.pass.${t}`)]);break;case"Announce":o(l.action.kind);break;case"Claim":i.set("claim",[n("term.claim"),n("help.claim")]),o(l.action.kind);break;case"Support":i.set("support",[n("term.support"),n("help.support")]);break;case"Join":i.set("join",[n("choice.join"),n("help.join")]);break;case"Done":i.set("done",[n("choice.done"),n("help.done")]);break;case"Choose":r(`help.choose.${t}`)&&i.set("choose",[n(`topic.${t}`),n(`help.choose.${t}`)]);break;default:break}return[...i.values()]}function be({ts:s}){let e=p.t,t=s.prompt,n=s.you;if(!t){let u=s.info?s.info.status:"open";return h`<section class="decision idle" aria-label=${e("decision.aria")}>
      <p>${e(u==="open"?"decision.waiting_players":u==="finished"?"decision.over":"decision.none")}</p></section>`}let a=(t.legal||[]).filter(u=>Oe.has(u.type)&&u.decision===t.id),r=t.pivot===n,i=!r&&(t.early||[]).includes(n),o=a.length>0,l=t.pivot===null||t.pivot===void 0?e("decision.window"):r?e("decision.yours"):e("decision.waiting",{name:_(s,t.pivot)}),f=e(`silence.${t.topic}`)!==`silence.${t.topic}`?e(`silence.${t.topic}`):t.silence,k=s.sentFor===U(s),m=s.view,v=t.topic==="privilege"&&m&&m.announcer!==null&&m.announcer!==void 0&&m.action?e("decision.context_privilege",{name:_(s,m.announcer),action:Q(s,m.action)}):null,g=o?Ge(s,a,t.topic):[];return h`<section class=${`decision${r?" mine":""}`} aria-label=${e("decision.aria")}>
    <div class="decision-head">
      <h2>${e(`topic.${t.topic}`)} <span class="muted small">${t.rule}</span></h2>
      <p class="who">${l} <${E} prompt=${t} at=${s.promptAt} bank=${r} /></p>
    </div>
    ${v&&h`<p class="small context">${v}</p>`}
    ${(t.done||[]).length>0&&h`<p class="small">${e("decision.done",{list:t.done.map(u=>_(s,u)).join(", ")})}</p>`}
    ${(t.published||[]).length>0&&h`<p class="small">${e("decision.so_far")} ${t.published.map(([u,w])=>`${_(s,u)}: ${ge(s,t.topic,w)}`).join(" · ")}</p>`}
    ${o&&h`<div>
      ${i&&h`<p class="small note">${e(t.kind==="window"?"decision.early_window":"decision.early")}</p>`}
      ${t.sealed&&h`<p class="small sealed">${e("decision.sealed",{answer:me(s,t.sealed,t.topic)})}</p>`}
      <div class="choices" role="group" aria-label=${e("decision.choices")}>
        ${a.map((u,w)=>h`<button type="button" key=${JSON.stringify(u)} class=${`choice ${u.type.toLowerCase()}`} data-key=${w+1}
            disabled=${k&&r} onClick=${()=>j(s,u)}>
          ${w<9&&h`<kbd aria-hidden="true">${w+1}</kbd>`}
          ${u.type==="Choose"?h`<${R} card=${u.card} size="s" />`:""}
          <span>${me(s,u,t.topic)}</span></button>`)}
      </div>
      ${g.length>0&&h`<details class="help" open>
        <summary>${e("decision.help")}</summary>
        <dl>${g.map(([u,w])=>h`<div key=${u}><dt>${u}</dt><dd>${w}</dd></div>`)}</dl>
      </details>`}
    </div>`}
    ${s.seated&&h`<${$e} ts=${s} /><${he} ts=${s} /><${fe} ts=${s} />`}
    <p class="small muted">${e("decision.silence",{what:f})}</p>
  </section>`}function ve({ts:s,view:e}){let t=p.t,n=e&&e.result||s.info&&s.info.result;if(!n)return null;let a=n.scores.map((r,i)=>i).sort((r,i)=>n.ranks[r]-n.ranks[i]||r-i);return h`<section class="result" aria-label=${t("result.aria")}>
    <h2>${t("result.title")}</h2>
    <p>${F(s).reason(n.reason)}</p>
    <table>
      <thead><tr><th>${t("result.rank")}</th><th>${t("result.player")}</th><th>${t("result.score")}</th><th>${t("result.inhabitant")}</th></tr></thead>
      <tbody>${a.map(r=>h`<tr key=${r} class=${r===s.you?"me":""}><td>${n.ranks[r]}</td><td>${_(s,r)}</td><td>${n.scores[r]}</td>
        <td>${n.inhabitants[r]!==null?h`<${R} card=${n.inhabitants[r]} size="s" />`:"–"}</td></tr>`)}</tbody>
    </table>
    ${s.rematch&&h`<p class="rematch-note" role="status">${t("result.rematch_offered",{name:_(s,s.rematch.seat)})}</p>`}
    <p class="actions">
      ${s.seated?h`<button type="button" class="primary" onClick=${()=>te(s)}>
          ${t(s.rematch?"result.join_rematch":"result.rematch")}</button>`:s.rematch&&h`<a class="button primary" href=${`#/t/${s.rematch.table}`}>${t("result.join_rematch")}</a>`}
      <a class="button" href=${`#/r/${s.id}`}>${t("result.replay")}</a>
      <a class="button" href="#/">${t("nav.lobby")}</a>
    </p>
    <${ee} ts=${s} />
  </section>`}var xt={name:"oriente",Stage:ke,Decision:be,Result:ve,Reference:ne,referenceTitle:"ref.title",reference:se,panels:[{key:"deals",Panel:re,count:s=>s.view&&s.view.deals?s.view.deals.length:0}],narrator:(s,e)=>new z(p.cat,p.en,p.refs.oriente,e),narratorBasis:()=>p.refs.oriente,info:{seats:{min:4,max:12,default:4},options:[{name:"max_open_proposals",type:"int",default:3,min:1,max:20}],windows:!0}};export{xt as default};
