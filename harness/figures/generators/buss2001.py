# Writes harness/figures/buss2001-*.json: the Buss 2001 tables transcribed once (spec 7.1-7.5) into figure specs.
# Run from the repository root: /usr/bin/python3 harness/figures/generators/buss2001.py
import json, math
import os
OUT=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..') + '/'
M={"1st order":("buss1",{}), "2nd order":("buss2",{}), "False 3rd order":("buss3false",{}),
 "Augmented 2nd order":("buss2aug",{}), "3rd order":("buss3",{}), "4th order":("buss4",{}),
 "Simo-Wong explicit":("simo_wong",{}), "McLachlan-Reich 1-2-3":("mr2",{"ordering":"123"}),
 "McLachlan-Reich 2-3-1":("mr2",{"ordering":"231"}), "MR 4th-order 2-3-1":("mr4",{"ordering":"231"}),
 "Runge-Kutta":("buss_rk_rotvec",{}), "AB-AM":("buss_abm",{})}
def sig(s):
  t=s.replace('.','').lstrip('0'); return len(t)
ABM="Not reproducible (Buss spec 5.11): the paper specifies neither the step count, the start-up nor the frame of its AB-AM; gibench runs the most plausible reading (AB4 predictor / AM4 corrector on the world angular velocity, RK start), whose numbers are shown but not judged. The spec's prototype did not reproduce them either (spec 8.1)."
def dump(f):
  for c in f["checks"]:  # every statement gibench posed itself says so (counted apart from the paper's)
    if c["statement"].startswith("(gibench)"): c["posed_by"]="gibench"
  json.dump(f,open(OUT+f["id"]+".json","w"),indent=1)
def me(mid,p): return {"id":mid,"params":p} if p else mid
def where(mid,p,**kw):
  w={"method":mid}; 
  if p: w["method_params"]=p
  w.update(kw); return w
COMMON_NOTES=["Test body: the reconstruction of Buss spec 3.3 (J = diag(19/60, 0.03, 47/150), L = (3/sqrt2)(1,1,0), R0 = I); the literal 1:4:18 prism cannot give E0 = 82.1053 and Emax = 150.0 (spec 3.2).",
 "Methods as the spec fixes them: eq. (9) with 2 omega x omega-ddot and the 4th-order term h^3/24 (omega-dddot + omega-ddot x omega) (spec 9 A1, A2); the 3rd-order method includes the h^3/36 term (spec 5.5); energy correction with rho = nu / sqrt(nu . J nu), applied after every step (spec 5.12, A4); Simo-Wong as run, without the division by h (spec 5.7); Runge-Kutta as the rotation-vector mean of four stage rotations (spec 5.10)."]
def energy_fig(fid, fig, title, cols, rows, extra_notes):
  sweeps=[]; checks=[]
  meths=[]
  for label,_ in rows:
    e=me(*M[label])
    if e not in meths: meths.append(e)
  for (N,h) in cols:
    sweeps.append({"name":"%s-h%g"%(fid,h),"problems":[{"problem":"free_rigid_body","presets":["buss2001"]}],
       "methods":meths,"h":[h],"steps":N-1,"observe":{"ref_samples":10}})
  for label,vals in rows:
    mid,p=M[label]
    for (N,h),v in zip(cols,vals):
      c={"kind":"value","statement":"%s: energy after N = %d, h = %g"%(label,N,h),"source":"Buss 2001, %s"%fig,
         "where":where(mid,p,h=h),"metric":"energy_final","paper_value":float(v),"sig_digits":sig(v)}
      if label=="AB-AM": c["not_reproducible"]=ABM
      checks.append(c)
  return {"id":fid,"title":title,"source":"Buss 2001, %s (spec 7.1-7.2)"%fig,"default":True,
          "notes":COMMON_NOTES+["The printed 'energy after N steps' is the energy after N - 1 steps (spec 3.4: every Figure 5 number matches only so); a value matches when ours rounds to the printed digits."]+extra_notes,
          "sweeps":sweeps,"plots":[],"checks":checks}

f4cols=[(100000,0.0001),(800000,0.0005),(400000,0.001),(200000,0.002),(100000,0.004)]
f4rows=[("1st order","109.663 150.0 150.0 150.0 150.0"),("2nd order","82.1054 82.5637 85.8535 115.058 150.0"),
 ("False 3rd order","82.1054 82.6471 86.5584 121.164 150.0"),("Augmented 2nd order","82.1053 82.0749 81.8636 80.2222 69.6595"),
 ("3rd order","82.1053 82.1154 82.1866 82.7686 88.0158"),("4th order","82.1053 82.1053 82.1056 82.1177 82.4979"),
 ("Simo-Wong explicit","109.661 150.0 150.0 150.0 150.0"),("McLachlan-Reich 1-2-3","82.1051 82.1028 82.1040 82.0482 81.8740"),
 ("McLachlan-Reich 2-3-1","82.1053 82.1053 82.1053 82.1054 82.1057"),("Runge-Kutta","82.1053 82.3810 84.3364 101.328 149.811"),
 ("AB-AM","82.1055 82.5159 85.4372 111.305 149.999")]
f4rows=[(l,v.split()) for l,v in f4rows]
fig4=energy_fig("buss2001-fig4","Energy after N steps, small steps (Buss Figure 4)","Figure 4",f4cols,f4rows,
  ["Column 1 is 10 s of motion, columns 2-5 are 400 s; 'the highest possible energy is 150.0 and represents complete failure'."])
for c in fig4["checks"]:
  if c["statement"].startswith("4th order") and "h = 0.002" in c["statement"]:
    del c["sig_digits"]; c["abs_tol"]=2e-4
    c["reason"]="Tolerance +/-2e-4 for this one cell (spec 10): the spec's independent prototype gets 82.1175 too (spec 8.1), 2 in the paper's last printed digit, while every other 4th-order cell matches to the printed digits."
  if c["statement"].startswith("McLachlan-Reich 1-2-3"):
    c["reason"]="Phase-sensitive (spec 10): the energy of MR 1-2-3 oscillates in a band, so a different sin/cos or summation order can move the last digits."
f5cols=[(1000,0.004),(500,0.008),(250,0.016),(200,0.020)]
f5rows=[("Augmented 2nd order","81.9528 81.0002 76.3078 74.5092"),("3rd order","82.1603 82.6283 89.2196 101.390"),
 ("4th order","82.1092 82.2288 86.0610 94.9191"),("McLachlan-Reich 1-2-3","81.9601 82.0779 79.3202 77.6101"),
 ("McLachlan-Reich 2-3-1","82.1057 82.1069 82.1083 82.1063"),("Runge-Kutta","83.4575 91.8125 132.808 149.855"),
 ("AB-AM","84.4914 101.429 149.736 149.999")]
f5rows=[(l,v.split()) for l,v in f5rows]
fig5=energy_fig("buss2001-fig5","Energy after N steps, large steps (Buss Figure 5)","Figure 5",f5cols,f5rows,["T = 4 s in every column; mean rotation per step 16.3 to 81.4 degrees."])

def steps_fig(fid, fig, title, cols, rows, deviations, default_rel):
  checks=[]
  for label,epflag,vals in rows:
    mid,p=M[label]
    if epflag: mid=mid+"_ec"
    for (T,eps,cap,tol),v in zip(cols,vals):
      name="%s (%s)"%(label,"energy-preserving" if epflag else "non-preserving")
      c={"kind":"steps","id":"%s|%s|T%g|e%g"%(label,epflag,T,eps),
         "statement":"%s: steps to error %g at T = %g"%(name,eps,T),"source":"Buss 2001, %s"%fig,
         "preset":"buss2001","method":mid,"T":T,"eps":eps,"cap":cap,
         "paper_value":("failed" if v=="failed" else int(v))}
      if p: c["params"]=p
      c.update(tol)
      key=(label,epflag,T,eps)
      if key in deviations:
        verdict,why=deviations[key]
        if verdict: c["expected_verdict"]=verdict; c["deviation"]=why
        else: c["reason"]=why
      elif label=="AB-AM": c["not_reproducible"]=ABM
      checks.append(c)
  return checks

T1={"abs_steps":0}; REL={"rel":0.01}
f6cols=[(0.4,1e-3,20480,T1),(0.4,1e-6,20480,REL),(4.0,1e-3,20480,T1)]
f6=[("1st order",0,"failed failed failed"),("1st order",1,"514 15356 16216"),("2nd order",0,"387 11509 14546"),("2nd order",1,"364 11500 11505"),
 ("False 3rd order",0,"412 12768 15056"),("False 3rd order",1,"404 12784 12773"),("Augmented 2nd order",0,"195 6513 5573"),("Augmented 2nd order",1,"210 6617 6616"),
 ("3rd order",0,"82 789 3661"),("3rd order",1,"37 209 652"),("4th order",0,"53 236 1304"),("4th order",1,"39 219 688"),
 ("Simo-Wong explicit",0,"failed failed failed"),("Simo-Wong explicit",1,"513 15356 16209"),("McLachlan-Reich 1-2-3",0,"514 16250 16131"),("McLachlan-Reich 1-2-3",1,"193 6063 5210"),
 ("McLachlan-Reich 2-3-1",0,"39 1192 1191"),("McLachlan-Reich 2-3-1",1,"31 955 945"),("MR 4th-order 2-3-1",0,"26 135 431"),("MR 4th-order 2-3-1",1,"18 73 196"),
 ("Runge-Kutta",0,"405 12771 13512"),("Runge-Kutta",1,"404 12785 12773"),("AB-AM",0,"782 failed failed"),("AB-AM",1,"451 14274 14279")]
f6=[(l,e,v.split()) for l,e,v in f6]
dev6={("Augmented 2nd order",1,4.0,1e-3):(None,"The spec prototype gets 6618 (spec 8.1): energy-corrected T = 4 rows carry +/-3 steps of search-protocol and round-off sensitivity (spec 10)."),
      ("Simo-Wong explicit",1,4.0,1e-3):(None,"The spec prototype gets 16210 (spec 8.1): +/-3 steps, as for the other energy-corrected T = 4 rows (spec 10)."),
      ("MR 4th-order 2-3-1",1,0.4,1e-3):(None,"Errors are not monotone in N here (spec 8.1: N = 13 passes, 16 and 17 fail): the paper's 18 is the smallest N from which every larger N passes, gibench's steps-to-accuracy rule.")}
checks6=steps_fig("buss2001-fig6","Figure 6","",f6cols,f6,dev6,REL)
for c in checks6:
  if c["T"]==4.0 and c["method"].endswith("_ec"): c["abs_steps"]=3
claims6=[
 {"kind":"ratio","statement":"3rd order + EP needs 'almost nine-fold' fewer steps than augmented 2nd order (Figure 6 column 3)","source":"Buss 2001 section 6",
  "numerator":"Augmented 2nd order|0|T4|e0.001","denominator":"3rd order|1|T4|e0.001","paper_value":9,"rel_tol":0.15},
 {"kind":"ratio","statement":"... and 'more than 30-fold' fewer in column 2","source":"Buss 2001 section 6",
  "numerator":"Augmented 2nd order|0|T0.4|e1e-06","denominator":"3rd order|1|T0.4|e1e-06","at_least":30},
 {"kind":"ratio","statement":"augmented 2nd order needs about half the steps of Runge-Kutta (6513 against 12771)","source":"Buss 2001 section 6",
  "numerator":"Augmented 2nd order|0|T0.4|e1e-06","denominator":"Runge-Kutta|0|T0.4|e1e-06","paper_value":0.5,"rel_tol":0.1},
 {"kind":"ratio","statement":"MR 2-3-1 'acted more like a third-order method': steps from eps 1e-3 to 1e-6 grow like 1000^(1/3) = 10, not 1000^(1/2) = 31.6","source":"Buss 2001 section 6; spec 9 A14 measures order 2",
  "numerator":"McLachlan-Reich 2-3-1|0|T0.4|e1e-06","denominator":"McLachlan-Reich 2-3-1|0|T0.4|e0.001","paper_value":10,"rel_tol":0.25,
  "expected_verdict":"refuted","deviation":"The steps grow by 30.6 (39 -> 1192, the paper's own Figure 6 numbers and ours), 1000^(1/2): second order. MR 2-3-1 only has a ~180x smaller error constant than 1-2-3 (spec 7.6 item 4, 9 A14)."},
 # spec 7.6 items 1, 4, 5/6 and 12: the qualitative claims, each checked on the steps found above.
 {"kind":"ratio","statement":"1st order + EP 'acts like 2nd order': from eps 1e-3 to 1e-6 its steps grow by 15356/514 = 29.9 (order 2: 1000^(1/2) = 31.6)","source":"Buss 2001 section 6; spec 7.6 item 1",
  "numerator":"1st order|1|T0.4|e1e-06","denominator":"1st order|1|T0.4|e0.001","paper_value":29.9,"rel_tol":0.1},
 {"kind":"ratio","statement":"MR 1-2-3 gains accuracy with EP (514 -> 193 steps, T = 0.4, eps = 1e-3)","source":"Buss 2001 section 6; spec 7.6 item 4",
  "numerator":"McLachlan-Reich 1-2-3|0|T0.4|e0.001","denominator":"McLachlan-Reich 1-2-3|1|T0.4|e0.001","paper_value":2.66,"rel_tol":0.15},
 {"kind":"ratio","statement":"MR 2-3-1 is the closest competitor, and 3rd order + EP still needs fewer steps (Figure 6 column 3: 1191 against 652)","source":"Buss 2001 section 6; spec 7.6 item 6",
  "numerator":"McLachlan-Reich 2-3-1|0|T4|e0.001","denominator":"3rd order|1|T4|e0.001","paper_value":1.83,"rel_tol":0.15},
 {"kind":"ratio","statement":"EP helps 3rd order substantially (Figure 6 column 3: 3661 -> 652 steps)","source":"Buss 2001 section 6; spec 7.6 item 12",
  "numerator":"3rd order|0|T4|e0.001","denominator":"3rd order|1|T4|e0.001","paper_value":5.62,"rel_tol":0.15},
 {"kind":"ratio","statement":"augmented 2nd order gets slightly worse with EP (Figure 6 column 3: 5573 -> 6616 steps)","source":"Buss 2001 section 6; spec 7.6 item 12",
  "numerator":"Augmented 2nd order|1|T4|e0.001","denominator":"Augmented 2nd order|0|T4|e0.001","paper_value":1.19,"rel_tol":0.1}]
fig6={"id":"buss2001-fig6","title":"Steps to reach orientation error eps at time T (Buss Figure 6)","source":"Buss 2001, Figure 6 (spec 7.4)","default":True,
 "notes":COMMON_NOTES+["Orientation error = geodesic angle between the simulated and the exact R at T, after exactly N steps of h = T/N (spec 3.4, 4.3); the exact reference is the elliptic-function solution.",
  "N is the smallest N from which every larger N meets eps (spec 10, A13), found by gibench's steps-to-accuracy search: geometric scan from N = 10, bisection, and a dense check of 64 integers above the answer. 'N > 20480 failed' is the paper's cap.",
  "Tolerances: exact N for the eps = 1e-3 columns (+/-3 for energy-corrected rows at T = 4), +/-1 % for eps = 1e-6 (spec 10)."],
 "sweeps":[],"plots":[],"checks":checks6+claims6}
f7cols=[(4.0,1e-6,40960,REL),(40.0,1e-3,40960,REL),(40.0,1e-6,163840,REL)]
f7=[("McLachlan-Reich 2-3-1",0,"failed 37533 failed"),("McLachlan-Reich 2-3-1",1,"failed 29760 failed"),("MR 4th-order 2-3-1",0,"2364 7526 41617"),("MR 4th-order 2-3-1",1,"1034 3282 failed"),
 ("3rd order",0,"36552 failed failed"),("3rd order",1,"3700 11621 65631"),("4th order",0,"5294 32656 131473"),("4th order",1,"3888 12275 69254")]
f7=[(l,e,v.split()) for l,e,v in f7]
dev7={("McLachlan-Reich 2-3-1",0,4.0,1e-6):("refuted","We converge at N = 37527, within the paper's cap of 40960, and so does the spec's prototype (spec 8.1, 9 A19): no round-off floor stops it."),
      ("McLachlan-Reich 2-3-1",1,4.0,1e-6):("refuted","We converge at N = 29851, within the cap, as the spec's prototype does (spec 8.1, 9 A19)."),
      ("MR 4th-order 2-3-1",1,40.0,1e-6):("refuted","The paper blames round-off; we converge at N = 18112, as the spec's prototype does, with no round-off floor (errors 6.1e-7 at N = 20480, 1.5e-10 at 163840; spec 7.6 item 10, 9 A19).")}
checks7=steps_fig("buss2001-fig7","Figure 7","",f7cols,f7,dev7,REL)
claims7=[
 {"kind":"ratio","statement":"MR4 2-3-1 needs about 2/3 as many steps as 3rd order + EP (T = 4, eps = 1e-6)","source":"Buss 2001 section 6",
  "numerator":"MR 4th-order 2-3-1|0|T4|e1e-06","denominator":"3rd order|1|T4|e1e-06","paper_value":0.667,"rel_tol":0.1},
 {"kind":"ratio","statement":"... and at T = 40, eps = 1e-3","source":"Buss 2001 section 6",
  "numerator":"MR 4th-order 2-3-1|0|T40|e0.001","denominator":"3rd order|1|T40|e0.001","paper_value":0.667,"rel_tol":0.1},
 {"kind":"ratio","statement":"4th order without EP is 'significantly better' than 3rd order without EP (T = 4, eps = 1e-6: 36552 against 5294 steps)","source":"Buss 2001 section 6; spec 7.6 item 9",
  "numerator":"3rd order|0|T4|e1e-06","denominator":"4th order|0|T4|e1e-06","paper_value":6.9,"rel_tol":0.15},
 {"kind":"ratio","statement":"with EP, 3rd and 4th order are 'essentially equivalent' (T = 4, eps = 1e-6: 3700 against 3888 steps)","source":"Buss 2001 section 6; spec 7.6 item 9",
  "numerator":"3rd order|1|T4|e1e-06","denominator":"4th order|1|T4|e1e-06","paper_value":0.95,"rel_tol":0.1},
 {"kind":"ratio","statement":"3rd order + EP: 'a six-fold increase in N gives a 1000-fold accuracy gain' (Figure 7 columns 2 -> 3: 11621 -> 65631)","source":"Buss 2001 section 6; spec 7.6 item 11",
  "numerator":"3rd order|1|T40|e1e-06","denominator":"3rd order|1|T40|e0.001","paper_value":6,"rel_tol":0.1},
 {"kind":"order","statement":"1st order + EP behaves like a second-order method at T = 4 (spec 8.2: 2.00)","source":"Buss 2001 section 6; spec 7.6 item 1",
  "where":{"method":"buss1_ec"},"metric":"rot_geodesic_final","paper_value":2,"expected":2,"tolerance":0.2,
  "reason":"A long-time slope: its asymptotic order is 1 (README, Known deviations), hidden at T = 4 by an O(h^2 T) term."},
 {"kind":"order","statement":"3rd order + EP: 'doubling the number of steps divides the error by about 15' (log2 15 = 3.9)","source":"Buss 2001 section 6, footnote",
  "where":{"method":"buss3_ec"},"metric":"rot_geodesic_final","paper_value":3.9,"expected":3.9,"tolerance":0.2},
 {"kind":"order","statement":"3rd order + EP behaves 'better than fourth order' (between fourth and fifth order)","source":"Buss 2001 section 6",
  "where":{"method":"buss3_ec"},"metric":"rot_geodesic_final","paper_value":4.5,"expected":4.5,"tolerance":0.4,
  "tolerance_reason":"'Between fourth and fifth order' spans 4.1 ... 4.9.",
  "expected_verdict":"refuted","deviation":"We fit 3.96, fourth order: the paper counts orders one lower than the standard global order (spec 9 A14); by the usual convention, and by its own 'divided by 15 per doubling', 3rd + EP is about 4th order, not better."},
 {"kind":"order","statement":"3rd order without EP is third order","source":"Buss 2001 section 6","where":{"method":"buss3"},"metric":"rot_geodesic_final","paper_value":3,"expected":3,"tolerance":0.2},
 {"kind":"order","statement":"4th order without EP is fourth order","source":"Buss 2001 section 6","where":{"method":"buss4","sweep":"buss2001-orders-T0.4-buss4"},"metric":"rot_geodesic_final","paper_value":4,"expected":4,"tolerance":0.2,
  "reason":"Fitted at T = 0.4: at T = 4 the slopes over N = 2000 ... 16000 are still 4.9, 4.8, 4.6 (spec 8.2, ours the same), pre-asymptotic, and below the floor 10 eps N before they settle."},
 {"kind":"order","statement":"MR 2-3-1 'acted more like a third-order method'","source":"Buss 2001 section 6; spec 9 A14","where":{"method":"mr2"},"metric":"rot_geodesic_final","paper_value":3,"expected":3,"tolerance":0.3,
  "expected_verdict":"refuted","deviation":"We fit 2.00: MR 2-3-1 is second order (the paper's own 39 -> 1192 steps say so too); it only has a ~180x smaller error constant than MR 1-2-3 (spec 7.6 item 4, 9 A14)."},
 {"kind":"order","statement":"(gibench) MR 2-3-1 is second order","posed_by":"gibench","source":"spec 9 A14","where":{"method":"mr2"},"metric":"rot_geodesic_final","paper_value":None,"expected":2,"tolerance":0.2},
 {"kind":"order","statement":"MR4 2-3-1 is fourth order","source":"Buss 2001 section 6","where":{"method":"mr4"},"metric":"rot_geodesic_final","paper_value":4,"expected":4,"tolerance":0.2}]
order_sweep={"name":"buss2001-orders-T4","problems":[{"problem":"free_rigid_body","presets":["buss2001"]}],
 "methods":["buss1_ec","buss3","buss3_ec","buss4","buss4_ec",{"id":"mr2","params":{"ordering":"231"}},{"id":"mr4","params":{"ordering":"231"}}],
 "N":[2000,2828,4000,5657,8000,11314,16000],"T":4.0,"observe":{"ref_samples":0},"fit":{"metrics":["rot_geodesic_final"],"floor":1e-13,"ceiling":0.1}}
deep_sweep={"name":"buss2001-orders-T0.4-buss4","problems":[{"problem":"free_rigid_body","presets":["buss2001"]}],
 "methods":["buss4"],"N":[400,566,800,1131,1600,2263,3200],"T":0.4,"observe":{"ref_samples":0},"fit":{"metrics":["rot_geodesic_final"],"floor":1e-13,"ceiling":0.1}}
fig7={"id":"buss2001-fig7","title":"High-accuracy runs and the order claims (Buss Figure 7, section 6)","source":"Buss 2001, Figure 7 and section 6 (spec 7.5, 7.6)","default":True,
 "notes":COMMON_NOTES+["As Figure 6; caps 40960 (T = 4, eps = 1e-6; T = 40, eps = 1e-3) and 163840 (T = 40, eps = 1e-6); +/-1 % on N (spec 10).",
  "Order claims are checked on fits at T = 4 over N = 2000 ... 16000 (spec 8.2), sqrt(2) apart so that a fit has the 5 points a decision needs; 4th order without EP at T = 0.4 over N = 400 ... 3200, where it is asymptotic above round-off."],
 "sweeps":[order_sweep,deep_sweep],"plots":[{"type":"convergence","metric":"rot_geodesic_final","file":"buss2001-fig7-orders.png","title":"Buss body, T = 4: orientation error against h"}],
 "checks":checks7+claims7}
for f in (fig4,fig5,fig6,fig7):
  dump(f)
print("ok", len(fig4["checks"]),len(fig5["checks"]),len(fig6["checks"]),len(fig7["checks"]))

# Figure 3: relative cost per step, 3rd order + EP = 1.00
f3=[("1st order","buss1",{},"0.30","0.77"),("2nd order","buss2",{},"0.37","0.83"),("Augmented 2nd order","buss2aug",{},"0.41","0.87"),
    ("3rd order","buss3",{},"0.54","1.00"),("4th order","buss4",{},"0.73","1.19"),("Symplectic 2nd order","mr2",{"ordering":"231"},"0.84","1.20"),
    ("Symplectic 4th order","mr4",{"ordering":"231"},"2.19","2.65")]
meths=[]
for _,mid,p,_,_ in f3:
  for m in (mid,mid+"_ec"):
    e={"id":m,"params":p} if p else m
    if e not in meths: meths.append(e)
meths.append("buss_rk_rotvec"); meths.append("buss_rk_rotvec_ec"); meths.append("odeint_rk4_quat")
sweep3={"name":"buss2001-fig3","problems":[{"problem":"free_rigid_body","presets":["buss2001"]}],"methods":meths,
        "h":[0.004],"steps":1000,"observe":{"ref_samples":0},"timing":{"reps":7}}
checks3=[]
ref={"method":"buss3_ec"}
F3_TOL=("The paper's column is an operation-count model for a Pentium II (sin/cos = 8 multiplies, sqrt = 5, divide = 3; spec 6), "
        "which Buss himself calls 'only approximations since ... minor differences in software and hardware configurations can "
        "cause significant changes in run times'; ours is measured ns/step on this machine. A factor 1.5 each way, the most an "
        "'about' claim gets (README, Verdicts).")
F3_DEV=("Measured time on a modern CPU against a 2001 operation-count model: trigonometry, square roots and memory traffic do not "
        "cost what the model charges, so some ratios move by more than a factor 1.5; the direction (cheaper or dearer than "
        "3rd order + EP) is the paper's wherever the row says so.")
def cost_dir(p):
  return {"at_most":1.0} if p<1 else {"at_least":1.0}
for label,mid,p,a,b in f3:
  for m,v,tag in ((mid,a,"without"),(mid+"_ec",b,"with")):
    if m=="buss3_ec": continue  # the normalisation itself (1.00 by definition), not a statement
    w={"method":m}
    if p: w["method_params"]=p
    c={"kind":"time_ratio","statement":"%s, %s energy preservation: cost per step relative to 3rd order + EP"%(label,tag),"source":"Buss 2001, Figure 3",
       "where":w,"reference":ref,"paper_value":float(v),"factor":1.5,"tolerance_reason":F3_TOL,"direction":cost_dir(float(v)),
       "deviation":F3_DEV}
    if label=="Symplectic 2nd order" and tag=="with":
      c["reason"]="The paper's 1.20 breaks its own constant EP increment of about 0.46; from its operation counts it should be about 1.30 (spec 9 A7)."
    checks3.append(c)
checks3.append({"kind":"time_ratio","statement":"Runge-Kutta costs about 1.20 without energy preservation","source":"Buss 2001 section 6","where":{"method":"buss_rk_rotvec"},"reference":ref,"paper_value":1.20,"factor":1.5,"tolerance_reason":F3_TOL,"direction":{"at_least":1.0},
  "reason":"Paper: operation-count estimate excluding the quaternion averaging.","deviation":F3_DEV})
checks3.append({"kind":"time_ratio","statement":"a Runge-Kutta step costs about 3x an augmented 2nd-order step (spec 7.6 item 3: so aug-2 is 'about 6x as efficient' with half the steps)","source":"Buss 2001 section 6","where":{"method":"buss_rk_rotvec"},"reference":{"method":"buss2aug"},"paper_value":3.0,"factor":1.5,"tolerance_reason":F3_TOL,"direction":{"at_least":1.0},
  "reason":"With Figure 6 column 2 (6513 against 12771 steps, reproduced), the measured per-step ratio gives aug-2's efficiency over RK as that ratio times 1.96.",
  "deviation":"An RK step costs about 2x an aug-2 step here, at the edge of the factor 1.5: with the 1.96x fewer steps aug-2 is about 3.9x as efficient, not 6x."})
checks3.append({"kind":"time_ratio","statement":"Runge-Kutta costs about 1.67 with energy preservation","source":"Buss 2001 section 6","where":{"method":"buss_rk_rotvec_ec"},"reference":ref,"paper_value":1.67,"factor":1.5,"tolerance_reason":F3_TOL,"direction":{"at_least":1.0},
  "deviation":F3_DEV})
checks3.append({"kind":"time_ratio","statement":"(gibench) odeint RK4 on the quaternion ODE relative to 3rd order + EP; Buss's model predicts 3rd + EP : RK4 of about 1 : 1.7","posed_by":"gibench","source":"issue 4 item 7","where":{"method":"odeint_rk4_quat"},"reference":ref,"paper_value":None,"yardstick":1.7,"factor":1.5,"tolerance_reason":F3_TOL,
  "reason":"Buss's comparison is with his rotation-vector RK (1.67 with EP); odeint RK4 on the quaternion ODE is the classical method people use instead.",
  "expected_verdict":"fails","deviation":"RK4 on the quaternion ODE costs about half a 3rd order + EP step: it needs no exponential at all, where Buss's rotation-vector RK pays four and a rotation average."})
fig3={"id":"buss2001-fig3","title":"Relative cost per step, 3rd order + energy preservation = 1.00 (Buss Figure 3)","source":"Buss 2001, Figure 3 (spec 6)","default":True,
 "notes":COMMON_NOTES+["Measured: median ns/step of 7 interleaved repetitions of 1000 steps at h = 0.004 on preset buss2001, divided by that of buss3_ec, on the machine in the manifest. Counted operations per step (exponentials, angular-velocity evaluations, failed corrections) are in each row's cost.",
  "The paper's numbers are its Pentium II operation-count model; measured times on a modern CPU are not expected to match closely, so the band is a factor of 1.5 each way, and each row also states its direction (cheaper or dearer than 3rd order + EP): a ratio outside the factor whose direction holds is 'direction only'. The verdicts depend on the machine (the CPU is in the manifest)."],
 "work_reference":{"method":"buss3_ec"},
 "sweeps":[sweep3],"plots":[],"checks":checks3}
dump(fig3)
mrlong={"id":"buss2001-mr-long","title":"McLachlan-Reich for 200 million steps at 81.4 degrees per step (Buss section 6)","source":"Buss 2001, text after Figure 5 (spec 7.3)","default":False,
 "notes":COMMON_NOTES+["Opt-in long run: 2e8 - 1 steps of h = 0.020 for each ordering (spec 3.4 step convention); it takes minutes.",
  "The energy oscillates in a bounded band, so the value after 2e8 steps is one sample of that band: the spec prototype gets 75.2695 and 82.1216 and expects +/-0.02 of phase scatter."],
 "sweeps":[{"name":"buss2001-mr-long","problems":[{"problem":"free_rigid_body","presets":["buss2001"]}],
   "methods":[{"id":"mr2","params":{"ordering":"123"}},{"id":"mr2","params":{"ordering":"231"}}],"h":[0.02],"steps":199999999,
   "observe":{"ref_samples":0},"timing":{"reps":1,"min_sample_seconds":0}}],
 "plots":[],
 "checks":[{"kind":"value","statement":"MR 1-2-3: final energy 75.2587 after 200,000,000 steps, 'a very modest drift'","source":"Buss 2001 section 6","where":{"method":"mr2","method_params":{"ordering":"123"}},"metric":"energy_final","paper_value":75.2587,"rel_tol":3e-4},
           {"kind":"value","statement":"MR 2-3-1: final energy 82.1218 after 200,000,000 steps","source":"Buss 2001 section 6","where":{"method":"mr2","method_params":{"ordering":"231"}},"metric":"energy_final","paper_value":82.1218,"rel_tol":3e-4},
           {"kind":"max","statement":"(gibench) MR 2-3-1 energy stays within 0.1 % of E0 over the whole run","source":"","where":{"method":"mr2","method_params":{"ordering":"231"}},"metric":"energy_rel_err_max","paper_value":"very modest drift","at_most":1e-3}]}
dump(mrlong)
print("fig3",len(checks3))
