# Stratified mean, 4 strata 70/20/7/3% (the coverage grid's design), n = 30 → sizes [21, 6, 2, 2]: collapsed strata.
# Run: python3 bench/strata-collapse-study.py 2000 3 30
import numpy as np, sys
from scipy import stats
rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv)>2 else 3)
R = int(sys.argv[1]); n = int(sys.argv[3]) if len(sys.argv)>3 else 30
B = 999; a=0.025
shares=[0.7,0.2,0.07,0.03]; sizes=[max(2,round(s*n)) for s in shares]
means=[0.02,0.1,0.3,-0.2]; sds=[0.3,0.6,1,1.5]
N=sum(sizes); W=np.array(sizes)/N; truth=sum(m*k for m,k in zip(means,sizes))/N
def gen():
    return [means[h]+sds[h]*(np.exp(rng.standard_normal(sizes[h]))-np.exp(0.5))/2.16 for h in range(4)]
def collapse_map(sz, minsize=3):
    # merge each stratum with < minsize items with its neighbour (next smaller index that is merged group), strata ordered as given
    groups=[[h] for h in range(len(sz))]
    changed=True
    while True:
        small=[g for g in groups if sum(sz[h] for h in g)<minsize]
        if not small or len(groups)==1: break
        g=small[-1]; i=groups.index(g)
        j=i-1 if i>0 else i+1
        groups[j]=sorted(groups[j]+g); groups.pop(i)
    return groups
def var_parts(ys, groups):
    v=[];df=[]
    for g in groups:
        y=np.concatenate([ys[h] for h in g]); m=len(y); Wg=m/N
        v.append(Wg**2*y.var(ddof=1)/m); df.append(m-1)
    return np.array(v), np.array(df)
G3=collapse_map(sizes,3); Gall=[[0],[1,2,3]]
print('sizes',sizes,'collapse',G3)
res={}
def rec(k,lo,hi):
    c,w=res.get(k,(0,0.0)); res[k]=(c+(lo<=truth<=hi), w+hi-lo)
for r in range(R):
    ys=gen(); est=sum(W[h]*ys[h].mean() for h in range(4))
    for name,groups in [('orig',[[h] for h in range(4)]),('coll3',G3),('coll_into2',Gall)]:
        v,df=var_parts(ys,groups); se=np.sqrt(v.sum())
        dfs=v.sum()**2/np.sum(v**2/df)
        q=stats.t.ppf(1-a, N-len(groups)); rec(name+' t(n-H)',est-q*se,est+q*se)
        q=stats.t.ppf(1-a, dfs); rec(name+' t(satt)',est-q*se,est+q*se)
    # studentized stratified bootstrap, resample within original strata, se* by orig or collapsed
    idx=[rng.integers(0,sizes[h],(B,sizes[h])) for h in range(4)]
    rs=[ys[h][idx[h]] for h in range(4)]
    estb=sum(W[h]*rs[h].mean(1) for h in range(4))
    for name,groups in [('orig',[[h] for h in range(4)]),('coll3',G3)]:
        vb=np.zeros(B)
        for g in groups:
            y=np.concatenate([rs[h] for h in g],1); m=y.shape[1]; vb+= (m/N)**2*y.var(1,ddof=1)/m
        seb=np.sqrt(vb)
        v,_=var_parts(ys,groups); se=np.sqrt(v.sum())
        with np.errstate(divide='ignore',invalid='ignore'):
            t=np.where(seb>0,(estb-est)/seb,np.sign(estb-est)*np.inf)
        ql,qh=np.quantile(t,[a,1-a]); rec(name+' stud',est-se*qh,est-se*ql)
    for name,groups in [('coll3 stud-rs',G3),('into2 stud-rs',Gall)]:
        ysg=[np.concatenate([ys[h] for h in g]) for g in groups]
        estb=np.zeros(B); vb=np.zeros(B)
        for y in ysg:
            m=len(y); z=y[rng.integers(0,m,(B,m))]; estb+=(m/N)*z.mean(1); vb+=(m/N)**2*z.var(1,ddof=1)/m
        seb=np.sqrt(vb); se=np.sqrt(sum((len(y)/N)**2*y.var(ddof=1)/len(y) for y in ysg))
        with np.errstate(divide='ignore',invalid='ignore'):
            t=np.where(seb>0,(estb-est)/seb,np.sign(estb-est)*np.inf)
        ql,qh=np.quantile(t,[a,1-a]); rec(name,est-se*qh,est-se*ql)
for k,(c,w) in res.items():
    c=c/R; print(f'{k:22s} {c:.3f} ± {np.sqrt(c*(1-c)/R):.3f} width {w/R:.3f}')
