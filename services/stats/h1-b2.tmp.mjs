import mongoose from 'mongoose';
const conn = mongoose.createConnection();
await conn.openUri('mongodb://127.0.0.1:27117/h1_bench2');
const n = Number(process.argv[2] ?? 5);
const variant = process.argv[3];
const col = conn.collection('speed_' + Date.now());
const ops = Array.from({length:n},(_,i)=>({insertOne:{document:{_id:`0|a${i}|x`, p:0, wm:i, g:'h', c:{lookups:1}}}}));
await col.bulkWrite(ops,{ordered:false});
let t = performance.now();
const upd = {
  a: (i)=>({filter:{_id:`0|a${i}|x`}, update:{$inc:{'c.lookups':1}}}),
  b: (i)=>({filter:{_id:`0|a${i}|x`, wm:i}, update:{$inc:{'c.lookups':1}}}),
  c: (i)=>({filter:{_id:`0|a${i}|x`}, update:{$inc:{'c.lookups':1}, $set:{wm:i+1000}}}),
  d: (i)=>({filter:{_id:`0|a${i}|x`}, update:{$inc:{'c.广东省':1}}}),
  e: (i)=>({filter:{_id:`0|a${i}|x`}, update:{$inc:{'c.e:/v1/ip/{ip}':1}}}),
}[variant];
const r = await col.bulkWrite(ops.map((o,i)=>({updateOne:upd(i)})),{ordered:variant==='o'});
console.log(variant, n, r.matchedCount, r.modifiedCount, (performance.now()-t).toFixed(0),'ms');
console.log(JSON.stringify(await col.findOne({_id:'0|a0|x'})));
await conn.dropDatabase(); await conn.close();
