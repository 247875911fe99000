import{b as p,d as b,e as f,o as $}from"./VERQYIVV.js";var v=b.bind(p),i=[.5,.65,.8,1,1.25,1.5,2];function w(n){let e=`oriente.zoom.${n}`,[s,r]=f(()=>{let t=Number(localStorage.getItem(e));return i.includes(t)?t:1});return[s,t=>{localStorage.setItem(e,String(t)),r(t)}]}function A({zoom:n,setZoom:e,label:s,children:r}){let o=$.t,t=i.indexOf(n);return v`<div class="map-frame">
    <div class="map-tools" role="group" aria-label=${s}>
      <button type="button" class="small zoom-out" title=${o("map.zoom_out")} aria-label=${o("map.zoom_out")}
        disabled=${t<=0} onClick=${()=>e(i[t-1])}>−</button>
      <button type="button" class="small zoom-reset" title=${o("map.zoom_reset")} aria-label=${o("map.zoom_reset")}
        disabled=${n===1} onClick=${()=>e(1)}>${Math.round(n*100)} %</button>
      <button type="button" class="small zoom-in" title=${o("map.zoom_in")} aria-label=${o("map.zoom_in")}
        disabled=${t>=i.length-1} onClick=${()=>e(i[t+1])}>+</button>
    </div>
    <div class="map-scroll">${r}</div>
  </div>`}var x={ArrowRight:[1,0],ArrowLeft:[-1,0],ArrowDown:[0,1],ArrowUp:[0,-1]};function M(n,e,s){let r=x[s];if(!r)return null;let o=n.find(a=>a[0]===e);if(!o)return n.length?n[0][0]:null;let t=null,l=1/0;for(let[a,g,h]of n){if(a===e)continue;let m=g-o[1],c=h-o[2],u=m*r[0]+c*r[1];if(u<=.01)continue;let z=Math.abs(m*r[1]-c*r[0]),d=u+2*z;d<l&&(t=a,l=d)}return t}export{w as a,A as b,M as c};
