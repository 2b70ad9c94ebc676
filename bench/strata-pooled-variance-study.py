# Strata of < 3 items given the pooled within-stratum variance (the other lonely-stratum fix), t on n − H df, same design as bench/strata-collapse-study.py.
# Run: python3 bench/strata-pooled-variance-study.py 2000 3  → appended to bench/strata-collapse-study.txt
import numpy as np, sys
from scipy import stats
rng=np.random.default_rng(int(sys.argv[2])); R=int(sys.argv[1]); n=30; a=0.025
shares=[0.7,0.2,0.07,0.03]; sizes=[max(2,round(s*n)) for s in shares]
means=[0.02,0.1,0.3,-0.2]; sds=[0.3,0.6,1,1.5]; N=sum(sizes); W=np.array(sizes)/N
truth=sum(m*k for m,k in zip(means,sizes))/N; cov=0; wid=0
for r in range(R):
    ys=[means[h]+sds[h]*(np.exp(rng.standard_normal(sizes[h]))-np.exp(0.5))/2.16 for h in range(4)]
    est=sum(W[h]*ys[h].mean() for h in range(4))
    pooled=sum(((y-y.mean())**2).sum() for y in ys)/(N-4)
    v=sum(W[h]**2*(ys[h].var(ddof=1) if sizes[h]>=3 else pooled)/sizes[h] for h in range(4))
    q=stats.t.ppf(1-a,N-4); lo,hi=est-q*np.sqrt(v),est+q*np.sqrt(v); cov+=lo<=truth<=hi; wid+=hi-lo
c=cov/R; print(f'pooled within-stratum variance for strata < 3 items, t(n-H): {c:.3f} ± {np.sqrt(c*(1-c)/R):.3f} width {wid/R:.3f}')
