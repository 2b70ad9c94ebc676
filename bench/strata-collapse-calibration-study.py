# Calibrated (double) studentized bootstrap on the collapsed strata [21], [6], [2 + 2] at n = 30 (strata 70/20/7/3%).
# Run: python3 bench/strata-collapse-calibration-study.py 500 21 30 499 100 and the same with seed 22 (replicates, seed, n, outer, inner).
import numpy as np, sys
rng = np.random.default_rng(int(sys.argv[2]))
R = int(sys.argv[1]); n = int(sys.argv[3]) if len(sys.argv)>3 else 30
B1=int(sys.argv[4]) if len(sys.argv)>4 else 999; B2=int(sys.argv[5]) if len(sys.argv)>5 else 200; a=0.025
shares=[0.7,0.2,0.07,0.03]; sizes=[max(2,round(s*n)) for s in shares]
means=[0.02,0.1,0.3,-0.2]; sds=[0.3,0.6,1,1.5]
N=sum(sizes); W=np.array(sizes)/N; truth=sum(m*k for m,k in zip(means,sizes))/N
G=[[0],[1],[2,3]] if n==30 else [[h] for h in range(4)]
res={}
def rec(k,lo,hi):
    c,w=res.get(k,(0,0.0)); res[k]=(c+(lo<=truth<=hi), w+hi-lo)
def tq(est,se,estb,seb):
    with np.errstate(divide='ignore',invalid='ignore'):
        return np.where(seb>0,(estb-est)/seb,np.sign(estb-est)*np.inf)
for r in range(R):
    ys=[means[h]+sds[h]*(np.exp(rng.standard_normal(sizes[h]))-np.exp(0.5))/2.16 for h in range(4)]
    ysg=[np.concatenate([ys[h] for h in g]) for g in G]
    est=sum(len(y)/N*y.mean() for y in ysg); se=np.sqrt(sum((len(y)/N)**2*y.var(ddof=1)/len(y) for y in ysg))
    estb=np.zeros(B1); vb=np.zeros(B1); est2=np.zeros((B1,B2)); v2=np.zeros((B1,B2))
    for y in ysg:
        m=len(y); z=y[rng.integers(0,m,(B1,m))]; estb+=(m/N)*z.mean(1); vb+=(m/N)**2*z.var(1,ddof=1)/m
        zz=np.take_along_axis(z[:,None,:].repeat(B2,1), rng.integers(0,m,(B1,B2,m)),2)
        est2+=(m/N)*zz.mean(2); v2+=(m/N)**2*zz.var(2,ddof=1)/m
    t1=tq(est,se,estb,np.sqrt(vb)); t2=tq(estb[:,None],None,est2,np.sqrt(v2))
    ql,qh=np.quantile(t1,[a,1-a]); rec('stud-rs',est-se*qh,est-se*ql)
    p=(t2<=t1[:,None]).mean(1); aL,aU=np.quantile(p,[a,1-a]); ql,qh=np.quantile(t1,[aL,aU]); rec('cal stud-rs',est-se*qh,est-se*ql)
for k,(c,w) in res.items():
    c=c/R; print(f'n={n} {k:14s} {c:.3f} ± {np.sqrt(c*(1-c)/R):.3f} width {w/R:.3f}')
